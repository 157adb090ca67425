/**
 * The first run of a test session (scripts/test-session.js): its beforeAll (session-attach.js) boots the session's app;
 * this checks that the app answers before the session takes spec files. Not part of any tier (jest.config.js's
 * testMatch does not reach integration-tests/setup/).
 */
it("boots the session's app, which answers on /health", async () => {
  const { api, getContainer } = globalThis.__PNE_APP_GROUP__.options
  expect(getContainer()).toBeTruthy()
  const res = await api.get("/health")
  expect(res.status).toBe(200)
})
