/**
 * The create form of the Payouts page: method, amount, currency, one destination kind with its own fields, recipient,
 * purpose. Validated in the browser with the server's own zod schema (core/payouts/payout-request.ts),
 * so the admin sees the same message, on the same field, before anything is sent; the server checks again (and
 * also the per-payout limit and allowed currencies, which only it knows). A saved card is picked from a customer's
 * cards (customer id, then a select listing brand and masked number); only its card id is sent.
 */
import { useMemo, useState } from "react"
import { Button, Drawer, Input, Label, Select, Text, toast } from "@medusajs/ui"
import { createPayoutSchema, firstIssue } from "../../../core/payouts/payout-request"
import { newIdempotencyKey, useCreatePayout, type Payout } from "../../lib/payouts"
import { maskedNumber, useCustomerCards } from "../../lib/saved-card-hooks"

type Kind = "card" | "bank" | "wallet" | "phone" | "saved_card"
const KIND_FIELDS: Record<Kind, Array<[string, string]>> = {
  card: [["card_number", "Card number"]],
  bank: [["account_number", "Account number / IBAN"], ["bank_name", "Bank name"], ["bank_branch", "Bank branch"]],
  wallet: [["wallet_id", "Wallet id"]],
  phone: [["phone", "Phone (international)"]],
  saved_card: [["card_id", "Saved card"]],
}

/** The customer's saved cards as a select (the customer id is typed in; only the chosen card id is sent). */
function SavedCardPicker({ customerId, cardId, onCustomer, onCard }: {
  customerId: string; cardId: string; onCustomer: (v: string) => void; onCard: (v: string) => void
}) {
  const id = customerId.trim()
  const cards = useCustomerCards(/^cus_[0-9A-Za-z]+$/.test(id) ? id : undefined)
  const list = cards.data?.cards ?? []
  return (
    <>
      <div className="flex flex-col gap-y-1">
        <Label htmlFor="payout-customer_id">Customer id</Label>
        <Input id="payout-customer_id" placeholder="cus_…" autoComplete="off" value={customerId} onChange={(e) => onCustomer(e.target.value)} />
        {cards.isError && <Text size="small" className="text-ui-fg-error">Could not load this customer's cards</Text>}
      </div>
      <div className="flex flex-col gap-y-1">
        <Label>Saved card</Label>
        <Select value={cardId} onValueChange={onCard} disabled={!list.length}>
          <Select.Trigger data-testid="payout-saved-card">
            <Select.Value placeholder={cards.isSuccess && !list.length ? "No saved cards" : "Choose a card"} />
          </Select.Trigger>
          <Select.Content>
            {list.map((c) => (
              <Select.Item key={c.id} value={c.id}>
                {`${c.brand ?? "Card"} ${maskedNumber(c)} · ${c.exp_month ?? "??"}/${c.exp_year ?? "????"}`}
              </Select.Item>
            ))}
          </Select.Content>
        </Select>
      </div>
    </>
  )
}

export function CreatePayoutForm({ onCreated }: { onCreated: (p: Payout) => void }) {
  const [open, setOpen] = useState(false)
  const [method, setMethod] = useState<"single" | "two_step" | "form">("two_step")
  const [kind, setKind] = useState<Kind>("card")
  const [values, setValues] = useState<Record<string, string>>({ currency_code: "EUR" })
  const [error, setError] = useState<{ field: string; message: string } | null>(null)
  // One key per opening of the form: resubmitting after an error or a double click is the same request.
  const idempotencyKey = useMemo(() => (open ? newIdempotencyKey() : ""), [open])
  const create = useCreatePayout()
  const set = (k: string) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [k]: e.target.value }))

  const body = () => {
    const destination =
      method === "form"
        ? undefined
        : { type: kind, ...Object.fromEntries(KIND_FIELDS[kind].map(([k]) => [k, values[k] ?? ""])) }
    return {
      method,
      amount: values.amount ?? "",
      currency_code: values.currency_code ?? "",
      ...(destination ? { destination } : {}),
      ...(values.recipient ? { recipient: values.recipient } : {}),
      ...(values.purpose ? { purpose: values.purpose } : {}),
    }
  }

  const submit = async () => {
    const b = body()
    const parsed = createPayoutSchema.safeParse(b)
    if (!parsed.success) return setError(firstIssue(parsed.error))
    setError(null)
    try {
      const { payout } = await create.mutateAsync({ body: b, idempotencyKey })
      toast.success(`Payout ${payout.id} ${payout.status}`)
      setOpen(false)
      setValues({ currency_code: values.currency_code })
      onCreated(payout)
    } catch (e: any) {
      const field = e?.field ?? e?.body?.field
      setError({ field: field ?? "body", message: e?.message ?? String(e) })
    }
  }

  const fieldError = (name: string) =>
    error && (error.field === name || error.field === `destination.${name}`) ? (
      <Text size="small" className="text-ui-fg-error" data-testid={`error-${name}`}>{error.message}</Text>
    ) : null

  return (
    <Drawer open={open} onOpenChange={setOpen}>
      <Drawer.Trigger asChild>
        <Button size="small" variant="secondary" data-testid="payout-create-open">Create payout</Button>
      </Drawer.Trigger>
      <Drawer.Content>
        <Drawer.Header>
          <Drawer.Title>Create payout</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
          <div className="flex flex-col gap-y-1">
            <Label>Method</Label>
            <Select value={method} onValueChange={(v) => setMethod(v as typeof method)}>
              <Select.Trigger data-testid="payout-method"><Select.Value /></Select.Trigger>
              <Select.Content>
                <Select.Item value="two_step">Two-step (check, then confirm)</Select.Item>
                <Select.Item value="single">Single-step</Select.Item>
                <Select.Item value="form">Hosted form (recipient enters destination)</Select.Item>
              </Select.Content>
            </Select>
          </div>
          <div className="flex gap-x-2">
            <div className="flex flex-1 flex-col gap-y-1">
              <Label htmlFor="payout-amount">Amount</Label>
              <Input id="payout-amount" placeholder="25.00" value={values.amount ?? ""} onChange={set("amount")} />
              {fieldError("amount")}
            </div>
            <div className="flex w-28 flex-col gap-y-1">
              <Label htmlFor="payout-currency">Currency</Label>
              <Input id="payout-currency" value={values.currency_code ?? ""} onChange={set("currency_code")} />
              {fieldError("currency_code")}
            </div>
          </div>
          {method !== "form" && (
            <>
              <div className="flex flex-col gap-y-1">
                <Label>Destination</Label>
                <Select value={kind} onValueChange={(v) => setKind(v as Kind)}>
                  <Select.Trigger data-testid="payout-destination-kind"><Select.Value /></Select.Trigger>
                  <Select.Content>
                    <Select.Item value="card">Card</Select.Item>
                    <Select.Item value="bank">Bank account</Select.Item>
                    <Select.Item value="wallet">E-wallet</Select.Item>
                    <Select.Item value="phone">Phone (fast payment)</Select.Item>
                    <Select.Item value="saved_card">A customer's saved card</Select.Item>
                  </Select.Content>
                </Select>
                {fieldError("destination")}
              </div>
              {kind === "saved_card" ? (
                <>
                  <SavedCardPicker
                    customerId={values.customer_id ?? ""}
                    cardId={values.card_id ?? ""}
                    onCustomer={(v) => setValues((x) => ({ ...x, customer_id: v, card_id: "" }))}
                    onCard={(v) => setValues((x) => ({ ...x, card_id: v }))}
                  />
                  {fieldError("card_id")}
                </>
              ) : (
                KIND_FIELDS[kind].map(([name, label]) => (
                  <div key={name} className="flex flex-col gap-y-1">
                    <Label htmlFor={`payout-${name}`}>{label}</Label>
                    <Input id={`payout-${name}`} autoComplete="off" value={values[name] ?? ""} onChange={set(name)} />
                    {fieldError(name)}
                  </div>
                ))
              )}
            </>
          )}
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="payout-recipient">Recipient name (optional)</Label>
            <Input id="payout-recipient" value={values.recipient ?? ""} onChange={set("recipient")} />
            {fieldError("recipient")}
          </div>
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="payout-purpose">Purpose (optional)</Label>
            <Input id="payout-purpose" value={values.purpose ?? ""} onChange={set("purpose")} />
            {fieldError("purpose")}
          </div>
          {error && !["amount", "currency_code", "recipient", "purpose", "destination"].includes(error.field) && !error.field.startsWith("destination.") && (
            <Text size="small" className="text-ui-fg-error" data-testid="payout-error">{error.message}</Text>
          )}
        </Drawer.Body>
        <Drawer.Footer>
          <Drawer.Close asChild>
            <Button size="small" variant="secondary">Cancel</Button>
          </Drawer.Close>
          <Button size="small" onClick={submit} isLoading={create.isPending} data-testid="payout-submit">Create</Button>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  )
}
