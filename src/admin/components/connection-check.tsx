/**
 * The PaynetEasy page's "Connection" tab: every registered PaynetEasy provider (base URL, endpoint, masked login,
 * flow, capture mode, RSA key loaded or not — never a key) and a live check that says in words whether the
 * credentials work (the same check as `medusa-payneteasy doctor`).
 */
import { Alert, Button, Container, Heading, Table, Text } from "@medusajs/ui"
import { errorText, useDoctor } from "../lib/hooks"
import { useWords } from "../lib/use-words"

export function ConnectionCheck() {
  const doctor = useDoctor()
  const { t } = useWords()
  const providers = doctor.data?.providers ?? []
  return (
    <Container className="divide-y p-0" data-testid="payneteasy-connection">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">{t("payneteasy.connection.title")}</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            {t("payneteasy.connection.intro")}
          </Text>
        </div>
        <Button size="small" onClick={() => doctor.mutate(undefined)} isLoading={doctor.isPending} data-testid="payneteasy-run-check">
          {t("payneteasy.connection.run")}
        </Button>
      </div>
      {doctor.isError && (
        <div className="px-6 py-4">
          <Alert variant="error">{t("payneteasy.connection.runError", { message: errorText(doctor.error) })}</Alert>
        </div>
      )}
      {doctor.isIdle && (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          {t("payneteasy.connection.idle")}
        </Text>
      )}
      {doctor.isSuccess && providers.length === 0 && (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          {t("payneteasy.connection.noProviders")}
        </Text>
      )}
      {providers.length > 0 && (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t("payneteasy.connection.provider")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.connection.gateway")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.connection.login")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.connection.flowCapture")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.connection.rsaKey")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.connection.panEligibility")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payneteasy.connection.result")}</Table.HeaderCell>
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
                <Table.Cell>
                  {p.rsa_key_loaded
                    ? p.rsa_key_bits
                      ? t("payneteasy.connection.keyLoadedBits", { bits: p.rsa_key_bits })
                      : t("payneteasy.connection.keyLoaded")
                    : t("payneteasy.connection.keyNotLoaded")}
                </Table.Cell>
                <Table.Cell data-testid="payneteasy-provider-pan-eligibility">
                  {p.pan_eligibility === null ? "—" : t(p.pan_eligibility ? "payneteasy.connection.panEligibilityOn" : "payneteasy.connection.panEligibilityOff")}
                </Table.Cell>
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
