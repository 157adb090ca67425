import "../styles/globals.css"
// PaynetEasy (docs/storefront.md step 1): the kit's inputs look like inputs under Tailwind's preflight
import "medusa-payment-payneteasy/storefront/styles.css"

export default function RootLayout(props: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <main className="p-8">{props.children}</main>
      </body>
    </html>
  )
}
