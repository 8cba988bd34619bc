// Generated from openapi/openapi.json by `pnpm openapi`; do not edit.
export const API_VERSION = "2026-11-26";
