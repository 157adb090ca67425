/**
 * The PaynetEasy page's "Connection" tab: every registered PaynetEasy provider (base URL, endpoint, masked login,
 * flow, capture mode, RSA key loaded or not — never a key) and a live check that says in words whether the
 * credentials work (the same check as `medusa-payneteasy doctor`).
 */
import { Alert, Button, Container, Heading, Table, Text } from "@medusajs/ui"
import { errorText, useDoctor } from "../lib/hooks"

export function ConnectionCheck() {
  const doctor = useDoctor()
  const providers = doctor.data?.providers ?? []
  return (
    <Container className="divide-y p-0" data-testid="payneteasy-connection">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Connection check</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Asks the gateway one STATUS for a made-up order with each provider's credentials. Nothing is paid or created.
          </Text>
        </div>
        <Button size="small" onClick={() => doctor.mutate(undefined)} isLoading={doctor.isPending} data-testid="payneteasy-run-check">
          Run connection check
        </Button>
      </div>
      {doctor.isError && (
        <div className="px-6 py-4">
          <Alert variant="error">The check could not run: {errorText(doctor.error)}</Alert>
        </div>
      )}
      {doctor.isIdle && (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          Press “Run connection check” to test every PaynetEasy provider of this store.
        </Text>
      )}
      {doctor.isSuccess && providers.length === 0 && (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          No PaynetEasy provider is registered in medusa-config.ts.
        </Text>
      )}
      {providers.length > 0 && (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Provider</Table.HeaderCell>
              <Table.HeaderCell>Gateway</Table.HeaderCell>
              <Table.HeaderCell>Login</Table.HeaderCell>
              <Table.HeaderCell>Flow / capture</Table.HeaderCell>
              <Table.HeaderCell>RSA key</Table.HeaderCell>
              <Table.HeaderCell>Result</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {providers.map((p) => (
              <Table.Row key={p.id} data-testid="payneteasy-provider" data-provider-id={p.id} data-ok={String(p.check.ok)}>
                <Table.Cell className="font-mono">{p.id}</Table.Cell>
                <Table.Cell>
                  <div className="flex flex-col">
                    <span className="font-mono">{p.base_url}</span>
                    <span className="text-ui-fg-subtle">{p.endpoint ? `${p.endpoint.kind} ${p.endpoint.id}` : "—"}</span>
                  </div>
                </Table.Cell>
                <Table.Cell className="font-mono">{p.login_masked}</Table.Cell>
                <Table.Cell>
                  {p.flow ?? "—"} / {p.capture ?? "—"}
                </Table.Cell>
                <Table.Cell>{p.rsa_key_loaded ? `loaded${p.rsa_key_bits ? ` (${p.rsa_key_bits} bits)` : ""}` : "not loaded"}</Table.Cell>
                <Table.Cell className="max-w-md whitespace-normal">
                  <Alert variant={p.check.ok ? "success" : "error"} data-testid="payneteasy-provider-result">
                    {p.check.message}
                  </Alert>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
    </Container>
  )
}
