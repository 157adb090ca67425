/** `--help` on the top level and on each command: says what it does, shows an example, exits 0 on stdout. */
import { runCli } from "./capture"

describe("medusa-payneteasy --help", () => {
  it("top level lists every command with an example", async () => {
    for (const argv of [["--help"], ["-h"], ["help"]]) {
      const res = await runCli(argv)
      expect(res.code).toBe(0)
      expect(res.stderr).toBe("")
      for (const cmd of ["request", "callback verify", "keys generate", "sandbox"]) expect(res.stdout).toContain(cmd)
      expect(res.stdout).toMatch(/Examples?:\n\s+medusa-payneteasy /)
    }
  })

  it("no command → usage on stderr, exit 2; unknown command → error, exit 2", async () => {
    const none = await runCli([])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain("Usage: medusa-payneteasy <command>")
    const unknown = await runCli(["refund"])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/unknown command "refund"/)
  })

  const commands: Array<[string[], RegExp]> = [
    [["request", "--help"], /Sends one PaynetEasy operation/],
    [["callback", "--help"], /Checks the control checksum/],
    [["callback", "verify", "--help"], /Checks the control checksum/],
    [["keys", "--help"], /Generates an RSA key pair/],
    [["keys", "generate", "-h"], /Generates an RSA key pair/],
    [["sandbox", "--help"], /Runs a local PaynetEasy gateway simulator/],
  ]
  it.each(commands)("%j explains the command and shows an example", async (argv, what) => {
    const res = await runCli(argv)
    expect(res.code).toBe(0)
    expect(res.stdout).toMatch(what)
    expect(res.stdout).toMatch(/^Usage: medusa-payneteasy /)
    expect(res.stdout).toMatch(/Example:\n\s+medusa-payneteasy /)
  })

  it("request --help lists the operations from the operation table", async () => {
    const res = await runCli(["request", "--help"])
    for (const op of ["SALE", "PREAUTH", "CAPTURE", "STATUS", "PAYOUT", "CARDREF_V4"]) expect(res.stdout).toContain(op)
  })

  it("an unknown flag is a usage error naming the flag", async () => {
    const res = await runCli(["keys", "generate", "--output", "/tmp/x"])
    expect(res.code).toBe(2)
    expect(res.stderr).toMatch(/--output/)
  })
})
