/** The part of pidusage 4's API the bench uses (bench/lib/cpu.ts; the package ships no types). */
declare module "pidusage" {
  interface Stat {
    /** total CPU time, user + system, in milliseconds */
    ctime: number
    cpu: number
    memory: number
    pid: number
  }
  function pidusage(pid: number): Promise<Stat>
  export = pidusage
}
