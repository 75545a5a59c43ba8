/** The Medparts API version this SDK is built and typed against; sent as `Medparts-Version` on every request. */
export const API_VERSION = "2026-12-07";

/** This package's version. */
export const SDK_VERSION = "1.0.0";
