import { readFileSync } from 'node:fs';

/**
 * The product's look, shared by the portal, the guides and the API reference (docs/connectors/portal.md): one
 * stylesheet, and the product's name where a framework would show its own logo.
 */
export const STYLESHEET = readFileSync(new URL('../../portal/assets/garage.css', import.meta.url), 'utf8');

export const PRODUCT_NAME = 'Garage public integration API';

/** The wordmark of the reference page's top bar, in place of Swagger's logo. */
export const LOGO_SVG = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="32" viewBox="0 0 300 32" role="img" aria-label="${PRODUCT_NAME}">` +
    '<text x="0" y="23" font-family="system-ui, sans-serif" font-size="20" fill="#ffffff"><tspan font-weight="700">Garage</tspan> public integration API</text></svg>',
);
