import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public final class MedpartsWebhook {
    /** True when header (Medparts-Signature) signs rawBody with secret and is at most 5 minutes old. */
    public static boolean verify(String secret, String header, byte[] rawBody, long toleranceSeconds) throws Exception {
        Map<String, String> parts = new HashMap<>();
        for (String part : header.split(",")) {
            String[] pair = part.split("=", 2);
            if (pair.length == 2) parts.put(pair[0], pair[1]);
        }
        long t;
        try {
            t = Long.parseLong(parts.getOrDefault("t", ""));
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(System.currentTimeMillis() / 1000 - t) > toleranceSeconds) return false;
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
        byte[] expected = mac.doFinal(rawBody);
        byte[] given;
        try {
            given = HexFormat.of().parseHex(parts.getOrDefault("v1", ""));
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(expected, given);
    }
}
