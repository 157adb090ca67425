/**
 * The test storefront's Next.js config (storefront-tests/next-app.spec.ts). Unlike dtc-starter, type errors are
 * NOT ignored: `next build` fails on one (the spec also runs `tsc` itself).
 */
module.exports = {
  reactStrictMode: true,
  eslint: { ignoreDuringBuilds: true },
  typescript: { ignoreBuildErrors: false },
  // the kit comes from a tarball install; nothing to transpile
}
