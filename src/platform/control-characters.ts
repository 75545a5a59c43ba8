/** Text that is never stored: C0 control characters (U+0000-U+001F) and DEL (U+007F). SCIM values and import rows refuse it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

export const hasControlCharacters = (text: string) => !NO_CONTROL_CHARACTERS.test(text);
