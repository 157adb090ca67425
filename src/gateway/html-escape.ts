/**
 * The one HTML escaper (text and attribute values): the return route's page and the sandbox's pages both use it.
 * Framework-free, so the sandbox may import it.
 */
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c])
