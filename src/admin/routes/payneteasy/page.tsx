/**
 * "PaynetEasy" in the dashboard sidebar (/app/payneteasy), with the count of open attention items on its icon: the
 * attention queue, the callback log and the connection check. Each tab is its own component (src/admin/components); data through react-query hooks (src/admin/lib/hooks.ts).
 */
import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Heading, Tabs, Text } from "@medusajs/ui"
import { AttentionList } from "../../components/attention-list"
import { AttentionNavIcon, AttentionTabLabel } from "../../components/attention-nav-icon"
import { CallbackLog } from "../../components/callback-log"
import { ConnectionCheck } from "../../components/connection-check"
import { useWords } from "../../lib/use-words"

const PaynetEasyPage = () => {
  const { t } = useWords()
  return (
  <div className="flex flex-col gap-y-3">
    <div>
      <Heading level="h1">{t("payneteasy.page.title")}</Heading>
      <Text size="small" className="text-ui-fg-subtle">
        {t("payneteasy.page.intro")}
      </Text>
    </div>
    <Tabs defaultValue="attention">
      <Tabs.List>
        <Tabs.Trigger value="attention">
          <AttentionTabLabel />
        </Tabs.Trigger>
        <Tabs.Trigger value="callbacks">{t("payneteasy.page.callbacksTab")}</Tabs.Trigger>
        <Tabs.Trigger value="connection">{t("payneteasy.page.connectionTab")}</Tabs.Trigger>
      </Tabs.List>
      <div className="mt-3">
        <Tabs.Content value="attention">
          <AttentionList />
        </Tabs.Content>
        <Tabs.Content value="callbacks">
          <CallbackLog />
        </Tabs.Content>
        <Tabs.Content value="connection">
          <ConnectionCheck />
        </Tabs.Content>
      </div>
    </Tabs>
  </div>
  )
}

// the icon shows the open attention items' count; the label is an i18n key of the plugin's words (translationNs: the
// dashboard's default namespace, where i18n/index.ts merges them)
export const config = defineRouteConfig({ label: "payneteasy.nav.payneteasy", translationNs: "translation", icon: AttentionNavIcon })

export default PaynetEasyPage
