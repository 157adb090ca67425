/** Tailwind 3 as dtc-starter uses it: its preflight resets every input's border and background. */
module.exports = { content: ["./src/**/*.{ts,tsx}"], theme: { extend: {} }, plugins: [] }
