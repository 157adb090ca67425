/** Admin user ids → emails, for "checked by" / "handled by" (who did it, in words an admin recognises). */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

export async function userEmails(container: MedusaContainer, ids: Array<string | null | undefined>): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter((x): x is string => !!x))]
  if (!unique.length) return new Map()
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "user", fields: ["id", "email"], filters: { id: unique } })
  return new Map((data as Array<{ id: string; email: string }>).map((u) => [u.id, u.email]))
}
