// One booted app, with the v4 registration (a generated RSA key), for the spec files listed under "v4-app" in
// integration-tests/setup/app-groups.js (integration-tests/helpers/app-group.ts): each runs unchanged, from a fresh
// database and sandbox.
import { runSpecFilesOnOneApp } from "../helpers/app-group"

runSpecFilesOnOneApp(require("../setup/app-groups")["integration:http"]["v4-app"], { v4: true })
