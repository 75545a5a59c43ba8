/**
 * Text an identity provider sends: SCIM values and paths never hold control characters (a JSON string escapes them),
 * so text with any (U+0000-U+001F, U+007F) is refused before it is stored, parsed or echoed.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
export const NOT_BLANK_NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*[^\u0000-\u001f\u007f\s][^\u0000-\u001f\u007f]*$/;

/** An e-mail address as SCIM takes one: something@somewhere, no spaces or control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
export const EMAIL_ADDRESS = /^[^@\s\u0000-\u001f\u007f]+@[^@\s\u0000-\u001f\u007f]+$/;
