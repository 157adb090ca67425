/**
 * The create form of the Payouts page: method, amount, currency (a select of the allowed ones, each with its
 * per-payout limit shown up front, from GET /admin/payneteasy/payout-settings), one destination kind with its own
 * fields, recipient, purpose. Validated in the browser with the server's own zod schema
 * (core/payouts/payout-request.ts) and the limit; every refusal — the browser's or the server's — is shown
 * under its field in words (server field paths are mapped to the form's fields). A saved card is picked by searching
 * customers by name or e-mail (Medusa's admin customers API), then one of their cards; only its card id is sent.
 * Nothing is sent before a dialog names the amount, currency and destination and the admin agrees.
 */
import { useState } from "react"
import { Alert, Button, Drawer, Input, Label, Select, Text, toast, usePrompt } from "@medusajs/ui"
import { createPayoutSchema, firstIssue } from "../../../core/payouts/payout-request"
import { toMinorUnits } from "../../../gateway/money"
import { newIdempotencyKey, useCreatePayout, useCustomerSearch, usePayoutSettings, type Payout } from "../../lib/payouts"
import { useCustomerCards } from "../../lib/saved-card-hooks"
import { useWords } from "../../lib/use-words"
import { FIELD_WORDS, formFieldOf, KIND_FIELDS, messageInWords, type PayoutKind } from "../../lib/payout-form-errors"

type Kind = PayoutKind
const KINDS: Kind[] = ["card", "bank", "wallet", "phone", "saved_card"]

type FieldError = { field: string; message: string }

/** Customer search (name or e-mail) and the chosen customer's saved cards; only the card id is kept. */
function SavedCardPicker({ cardId, onCard, error }: { cardId: string; onCard: (v: string, label: string) => void; error: React.ReactNode }) {
  const w = useWords()
  const { t } = w
  const [q, setQ] = useState("")
  const [customer, setCustomer] = useState<{ id: string; label: string } | null>(null)
  const hits = useCustomerSearch(customer ? "" : q)
  const cards = useCustomerCards(customer?.id)
  const list = cards.data?.cards ?? []
  const cardLabel = (c: (typeof list)[number]) => `${w.card(c.brand, c.last4)} · ${c.exp_month ?? "??"}/${c.exp_year ?? "????"}`
  return (
    <>
      <div className="flex flex-col gap-y-1">
        <Label htmlFor="payout-customer">{t("payneteasy.payouts.form.customer")}</Label>
        {customer ? (
          <div className="flex items-center justify-between gap-x-2">
            <Text size="small" data-testid="payout-customer-chosen">{customer.label}</Text>
            <Button size="small" variant="transparent" onClick={() => { setCustomer(null); onCard("", "") }}>{t("payneteasy.common.cancel")}</Button>
          </div>
        ) : (
          <>
            <Input id="payout-customer" type="search" placeholder={t("payneteasy.payouts.form.customerSearch")} autoComplete="off" value={q} onChange={(e) => setQ(e.target.value)} />
            {hits.data ? (
              hits.data.customers.length ? (
                <div className="flex flex-col rounded-md border" data-testid="payout-customer-hits">
                  {hits.data.customers.map((c) => {
                    const name = [c.first_name, c.last_name].filter(Boolean).join(" ")
                    const label = name ? `${name} (${c.email})` : c.email
                    return (
                      <button key={c.id} type="button" className="px-3 py-2 text-left txt-compact-small hover:bg-ui-bg-base-hover" onClick={() => setCustomer({ id: c.id, label })}>
                        {label}
                      </button>
                    )
                  })}
                </div>
              ) : (
                <Text size="small" className="text-ui-fg-subtle">{t("payneteasy.payouts.form.noCustomers")}</Text>
              )
            ) : null}
          </>
        )}
        {cards.isError && <Text size="small" className="text-ui-fg-error">{t("payneteasy.payouts.form.cardsError")}</Text>}
      </div>
      <div className="flex flex-col gap-y-1">
        <Label>{t("payneteasy.payouts.form.savedCard")}</Label>
        <Select value={cardId} onValueChange={(v) => { const c = list.find((x) => x.id === v); onCard(v, c ? `${w.card(c.brand, c.last4)}${customer ? ` (${customer.label})` : ""}` : "") }} disabled={!list.length}>
          <Select.Trigger data-testid="payout-saved-card">
            <Select.Value placeholder={cards.isSuccess && !list.length ? t("payneteasy.payouts.form.noCards") : t("payneteasy.payouts.form.chooseCard")} />
          </Select.Trigger>
          <Select.Content>
            {list.map((c) => (
              <Select.Item key={c.id} value={c.id}>{cardLabel(c)}</Select.Item>
            ))}
          </Select.Content>
        </Select>
        {error}
      </div>
    </>
  )
}

export function CreatePayoutForm({ onCreated }: { onCreated: (p: Payout) => void }) {
  const w = useWords()
  const { t } = w
  const [open, setOpen] = useState(false)
  const [method, setMethod] = useState<"single" | "two_step" | "form">("two_step")
  const [kind, setKind] = useState<Kind>("card")
  const [values, setValues] = useState<Record<string, string>>({})
  const [cardLabel, setCardLabel] = useState("")
  const [error, setError] = useState<FieldError | null>(null)
  // One key per opening of the form by the admin: resubmitting after an error, after cancelling the confirmation or
  // a double click is the same request.
  const [idempotencyKey, setIdempotencyKey] = useState("")
  const create = useCreatePayout()
  const settings = usePayoutSettings()
  const prompt = usePrompt()
  const allowed = settings.data?.currencies ?? []
  const currency = values.currency_code || allowed[0]?.currency_code || ""
  const limit = allowed.find((c) => c.currency_code === currency)
  const set = (k: string) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [k]: e.target.value }))

  const fieldLabel = (field: string) => t(`payneteasy.payouts.form.${FIELD_WORDS[field] ?? field}`)
  const showError = (path: string | undefined, message: string) => {
    const field = formFieldOf(path)
    setError({ field, message: field === "form" ? message : messageInWords(message, fieldLabel) })
  }

  const body = () => {
    const destination =
      method === "form" ? undefined : { type: kind, ...Object.fromEntries(KIND_FIELDS[kind].map(([k]) => [k, values[k] ?? ""])) }
    return {
      method,
      amount: values.amount ?? "",
      currency_code: currency,
      ...(destination ? { destination } : {}),
      ...(values.recipient ? { recipient: values.recipient } : {}),
      ...(values.purpose ? { purpose: values.purpose } : {}),
    }
  }

  const destinationText = () => {
    if (method === "form") return ""
    if (kind === "saved_card") return cardLabel
    if (kind === "card") return w.card(null, (values.card_number ?? "").replace(/\D/g, "").slice(-4))
    const v = values[KIND_FIELDS[kind][0][0]] ?? ""
    return `${w.status("destination", kind).label} •••• ${v.replace(/\s/g, "").slice(-4)}`
  }

  const submit = async () => {
    const b = body()
    const parsed = createPayoutSchema.safeParse(b)
    if (!parsed.success) {
      const issue = firstIssue(parsed.error)
      return showError(issue.field, issue.message)
    }
    if (limit && toMinorUnits(parsed.data.amount, currency) > toMinorUnits(limit.max_amount, currency)) {
      return showError("amount", t("payneteasy.payouts.form.aboveLimit", { amount: w.money(limit.max_amount, currency) }))
    }
    setError(null)
    const amount = w.money(parsed.data.amount, currency)
    const destination = destinationText()
    // The drawer steps aside while the dialog asks (so nothing covers it), and comes back as it was if the admin says no.
    setOpen(false)
    const ok = await prompt({
      title: t("payneteasy.confirm.title"),
      description:
        method === "form"
          ? t("payneteasy.confirm.payoutForm", { amount })
          : method === "two_step"
            ? t("payneteasy.confirm.payoutCreateTwoStep", { amount, destination })
            : t("payneteasy.confirm.payoutCreate", { amount, destination }),
      confirmText: method === "form" ? t("payneteasy.confirm.createForm") : method === "two_step" ? t("payneteasy.confirm.check") : t("payneteasy.confirm.send", { amount }),
      cancelText: t("payneteasy.confirm.cancel"),
    })
    if (!ok) return setOpen(true)
    try {
      const { payout } = await create.mutateAsync({ body: b, idempotencyKey })
      toast.success(t("payneteasy.payouts.sentToast", { amount, status: w.status("payout", payout.status).label }))
      setOpen(false)
      setValues({ currency_code: values.currency_code ?? "" })
      onCreated(payout)
    } catch (e: any) {
      const field = e?.field ?? e?.body?.field
      showError(field, e?.message ?? String(e))
      setOpen(true)
    }
  }

  const fieldError = (name: string) =>
    error && error.field === name ? (
      <Text size="small" className="text-ui-fg-error" data-testid={`error-${name}`}>{error.message}</Text>
    ) : null

  return (
    <Drawer
      open={open}
      onOpenChange={(o) => {
        if (o) setIdempotencyKey(newIdempotencyKey())
        else setError(null)
        setOpen(o)
      }}
    >
      <Drawer.Trigger asChild>
        <Button size="small" variant="secondary" data-testid="payout-create-open">{t("payneteasy.payouts.create")}</Button>
      </Drawer.Trigger>
      <Drawer.Content>
        <Drawer.Header>
          <Drawer.Title>{t("payneteasy.payouts.create")}</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
          {settings.data && !settings.data.enabled ? <Alert variant="warning">{t("payneteasy.payouts.disabled")}</Alert> : null}
          {allowed.length ? (
            <Text size="small" className="text-ui-fg-subtle" data-testid="payout-limits">
              {t("payneteasy.payouts.limits", {
                list: allowed.map((c) => t("payneteasy.payouts.limitItem", { currency: c.currency_code, amount: w.money(c.max_amount, c.currency_code) })).join(", "),
              })}
            </Text>
          ) : null}
          {error?.field === "form" ? <Alert variant="error" data-testid="payout-error">{error.message}</Alert> : null}
          <div className="flex flex-col gap-y-1">
            <Label>{t("payneteasy.payouts.form.method")}</Label>
            <Select value={method} onValueChange={(v) => setMethod(v as typeof method)}>
              <Select.Trigger data-testid="payout-method"><Select.Value /></Select.Trigger>
              <Select.Content>
                {(["two_step", "single", "form"] as const).map((m) => (
                  <Select.Item key={m} value={m}>{w.status("payoutMethod", m).label}</Select.Item>
                ))}
              </Select.Content>
            </Select>
            {fieldError("method")}
          </div>
          <div className="flex gap-x-2">
            <div className="flex flex-1 flex-col gap-y-1">
              <Label htmlFor="payout-amount">{t("payneteasy.payouts.form.amount")}</Label>
              <Input id="payout-amount" inputMode="decimal" placeholder="25.00" value={values.amount ?? ""} onChange={set("amount")} />
              {fieldError("amount")}
            </div>
            <div className="flex w-40 flex-col gap-y-1">
              <Label>{t("payneteasy.payouts.form.currency")}</Label>
              <Select value={currency} onValueChange={(v) => setValues((x) => ({ ...x, currency_code: v }))} disabled={!allowed.length}>
                <Select.Trigger data-testid="payout-currency"><Select.Value /></Select.Trigger>
                <Select.Content>
                  {allowed.map((c) => (
                    <Select.Item key={c.currency_code} value={c.currency_code}>{c.currency_code}</Select.Item>
                  ))}
                </Select.Content>
              </Select>
              {fieldError("currency_code")}
            </div>
          </div>
          {method !== "form" && (
            <>
              <div className="flex flex-col gap-y-1">
                <Label>{t("payneteasy.payouts.form.destination")}</Label>
                <Select value={kind} onValueChange={(v) => setKind(v as Kind)}>
                  <Select.Trigger data-testid="payout-destination-kind"><Select.Value /></Select.Trigger>
                  <Select.Content>
                    {KINDS.map((k) => (
                      <Select.Item key={k} value={k}>{w.status("destination", k).label}</Select.Item>
                    ))}
                  </Select.Content>
                </Select>
                {fieldError("destination")}
              </div>
              {kind === "saved_card" ? (
                <SavedCardPicker
                  cardId={values.card_id ?? ""}
                  onCard={(v, label) => { setValues((x) => ({ ...x, card_id: v })); setCardLabel(label) }}
                  error={fieldError("card_id")}
                />
              ) : (
                KIND_FIELDS[kind].map(([name, words]) => (
                  <div key={name} className="flex flex-col gap-y-1">
                    <Label htmlFor={`payout-${name}`}>{t(`payneteasy.payouts.form.${words}`)}</Label>
                    <Input id={`payout-${name}`} autoComplete="off" value={values[name] ?? ""} onChange={set(name)} />
                    {fieldError(name)}
                  </div>
                ))
              )}
            </>
          )}
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="payout-recipient">{t("payneteasy.payouts.form.recipient")}</Label>
            <Input id="payout-recipient" value={values.recipient ?? ""} onChange={set("recipient")} />
            {fieldError("recipient")}
          </div>
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="payout-purpose">{t("payneteasy.payouts.form.purpose")}</Label>
            <Input id="payout-purpose" value={values.purpose ?? ""} onChange={set("purpose")} />
            {fieldError("purpose")}
          </div>
        </Drawer.Body>
        <Drawer.Footer>
          <Drawer.Close asChild>
            <Button size="small" variant="secondary">{t("payneteasy.common.cancel")}</Button>
          </Drawer.Close>
          <Button size="small" onClick={submit} isLoading={create.isPending} disabled={!allowed.length} data-testid="payout-submit">
            {t("payneteasy.payouts.form.submit")}
          </Button>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  )
}
