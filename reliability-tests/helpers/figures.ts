/** One-line figures every reliability spec prints (`[reliability] fault trials: 120, agreements: 120, …`). */
export function printFigures(figures: Record<string, number | string>): string {
  const line = `[reliability] ${Object.entries(figures).map(([k, v]) => `${k}: ${v}`).join(", ")}`
  console.log(line)
  return line
}
