/** Asks the OS for a free TCP port (bind to port 0, read it back, release it). Used for the test app and the sandbox. */
import net from "node:net"

export function getFreePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.once("error", reject)
    server.listen({ port: 0, host }, () => {
      const address = server.address()
      const port = typeof address === "object" && address ? address.port : 0
      server.close(() => (port ? resolve(port) : reject(new Error("could not read the free port"))))
    })
  })
}
