/** Port choice for the demo: the conventional port when it is free (9000 backend, 4010 sandbox), else any free one. */
import net from "node:net"
import { getFreePort } from "../../integration-tests/helpers/ports"

export async function preferredPort(preferred: number, host?: string): Promise<number> {
  const free = await new Promise<boolean>((resolve) => {
    const server = net.createServer()
    server.unref()
    server.once("error", () => resolve(false))
    server.listen({ port: preferred, host }, () => server.close(() => resolve(true)))
  })
  return free ? preferred : getFreePort()
}
