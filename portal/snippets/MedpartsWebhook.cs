using System;
using System.Linq;
using System.Security.Cryptography;
using System.Text;

public static class MedpartsWebhook
{
    /// True when header (Medparts-Signature) signs rawBody with secret and is at most 5 minutes old.
    public static bool Verify(string secret, string header, byte[] rawBody, long toleranceSeconds = 300)
    {
        var parts = header.Split(',')
            .Select(part => part.Split('=', 2))
            .Where(pair => pair.Length == 2)
            .GroupBy(pair => pair[0])
            .ToDictionary(group => group.Key, group => group.First()[1]);
        if (!parts.TryGetValue("t", out var tText) || !long.TryParse(tText, out var t)) return false;
        if (Math.Abs(DateTimeOffset.UtcNow.ToUnixTimeSeconds() - t) > toleranceSeconds) return false;
        using var hmac = new HMACSHA256(Encoding.UTF8.GetBytes(secret));
        var signed = Encoding.UTF8.GetBytes($"{t}.").Concat(rawBody).ToArray();
        var expected = hmac.ComputeHash(signed);
        byte[] given;
        try { given = Convert.FromHexString(parts.GetValueOrDefault("v1", "")); }
        catch (FormatException) { return false; }
        return CryptographicOperations.FixedTimeEquals(expected, given);
    }
}
