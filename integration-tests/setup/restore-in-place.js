/**
 * The runner's per-test restore without copying the database: the tables a test wrote are put back from a copy of
 * their rows taken at the snapshot, inside the same database (issue 38). A test writes a few dozen of Medusa's ~300
 * tables; a CREATE DATABASE … TEMPLATE copies all 18 MB of them (0.6-1.0 s on a quiet 2-core machine, and Postgres
 * CPU for the WAL it writes), plus the old database's drop and its two checkpoints, plus every app connection cut.
 *
 * How the state is named and brought back (all in the test database, schema `pne_restore`):
 *   - snapshot(key): the rows of every non-empty public table are copied into a schema of their own, the sequences'
 *     values noted, and a statement trigger put on every public table (once) that writes the table's name into a log
 *     with the current epoch number; the snapshot gets a new epoch;
 *   - restore(key): every table logged at or after the snapshot's epoch is emptied and refilled from its copy (foreign
 *     keys and triggers off for the refill: session_replication_role = replica), every sequence set back; the refilled
 *     tables are logged at the new epoch (another snapshot may need them). Tables not logged are as the snapshot left
 *     them, so the database equals the snapshot's state, as a fresh copy would.
 *   - consistency with the app's own writes: the trigger runs BEFORE each write statement and takes a ROW SHARE lock
 *     on the epoch table until its transaction ends; snapshot and restore take an EXCLUSIVE lock on it first, so they
 *     wait for every transaction that has written, and writes that start meanwhile wait for them (lock_timeout 5 s).
 * restore() answers false when it cannot vouch for the result (no snapshot of that key here, a table added or dropped
 * since, not a superuser): the caller then copies the snapshot's template database as before (database-restore.js).
 */

const SETUP = `
CREATE SCHEMA IF NOT EXISTS pne_restore;
CREATE TABLE IF NOT EXISTS pne_restore.epoch (n int NOT NULL);
INSERT INTO pne_restore.epoch SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM pne_restore.epoch);
CREATE UNLOGGED TABLE IF NOT EXISTS pne_restore.log (name text NOT NULL, epoch int NOT NULL);
CREATE INDEX IF NOT EXISTS pne_restore_log_name_epoch ON pne_restore.log (name, epoch);
CREATE TABLE IF NOT EXISTS pne_restore.snapshots (
  key text PRIMARY KEY, schema_name text NOT NULL, epoch int NOT NULL, tables text[] NOT NULL, copied text[] NOT NULL, seqs jsonb NOT NULL
);
CREATE SEQUENCE IF NOT EXISTS pne_restore.snapshot_number;

CREATE OR REPLACE FUNCTION pne_restore.mark() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE e int;
BEGIN
  LOCK TABLE pne_restore.epoch IN ROW SHARE MODE;
  SELECT n INTO e FROM pne_restore.epoch;
  IF NOT EXISTS (SELECT 1 FROM pne_restore.log WHERE name = TG_TABLE_NAME AND epoch = e) THEN
    INSERT INTO pne_restore.log VALUES (TG_TABLE_NAME, e);
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION pne_restore.public_tables() RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(c.relname::text ORDER BY c.relname), '{}')
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
$$;

CREATE OR REPLACE FUNCTION pne_restore.snapshot(k text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  old text; sch text; t text; has boolean; copied text[] := '{}'; e int;
BEGIN
  SET LOCAL lock_timeout = '5s';
  LOCK TABLE pne_restore.epoch IN EXCLUSIVE MODE;
  SELECT schema_name INTO old FROM pne_restore.snapshots WHERE key = k;
  IF FOUND THEN
    EXECUTE format('DROP SCHEMA %I CASCADE', old);
    DELETE FROM pne_restore.snapshots WHERE key = k;
  END IF;
  FOR t IN
    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
      AND NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND g.tgname = 'pne_restore_mark')
  LOOP
    EXECUTE format('CREATE TRIGGER pne_restore_mark BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.%I FOR EACH STATEMENT EXECUTE FUNCTION pne_restore.mark()', t);
  END LOOP;
  sch := 'pne_snapshot_' || nextval('pne_restore.snapshot_number');
  EXECUTE format('CREATE SCHEMA %I', sch);
  FOREACH t IN ARRAY pne_restore.public_tables() LOOP
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM public.%I)', t) INTO has;
    IF has THEN
      EXECUTE format('CREATE UNLOGGED TABLE %I.%I AS SELECT * FROM public.%I', sch, t, t);
      copied := copied || t;
    END IF;
  END LOOP;
  UPDATE pne_restore.epoch SET n = n + 1 RETURNING n INTO e;
  INSERT INTO pne_restore.snapshots VALUES (k, sch, e, pne_restore.public_tables(), copied, (
    SELECT coalesce(jsonb_agg(jsonb_build_object(
      'name', sequencename, 'value', coalesce(last_value, start_value), 'called', last_value IS NOT NULL)), '[]')
    FROM pg_sequences WHERE schemaname = 'public'
  ));
END $$;

CREATE OR REPLACE FUNCTION pne_restore.restore(k text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  s pne_restore.snapshots; t text; cols text; e int; touched text[];
BEGIN
  SELECT * INTO s FROM pne_restore.snapshots WHERE key = k;
  IF NOT FOUND THEN RETURN false; END IF;
  SET LOCAL lock_timeout = '5s';
  LOCK TABLE pne_restore.epoch IN EXCLUSIVE MODE;
  IF pne_restore.public_tables() IS DISTINCT FROM s.tables THEN RETURN false; END IF;
  SET LOCAL session_replication_role = replica;
  SELECT coalesce(array_agg(DISTINCT name), '{}') INTO touched FROM pne_restore.log WHERE epoch >= s.epoch;
  FOREACH t IN ARRAY touched LOOP
    EXECUTE format('DELETE FROM public.%I', t);
    IF t = ANY (s.copied) THEN
      SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO cols FROM pg_attribute
      WHERE attrelid = format('public.%I', t)::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '';
      EXECUTE format('INSERT INTO public.%I (%s) OVERRIDING SYSTEM VALUE SELECT %s FROM %I.%I', t, cols, cols, s.schema_name, t);
    END IF;
  END LOOP;
  PERFORM setval(format('public.%I', q.name)::regclass, q.value, q.called)
  FROM jsonb_to_recordset(s.seqs) AS q(name text, value bigint, called boolean);
  UPDATE pne_restore.epoch SET n = n + 1 RETURNING n INTO e;
  INSERT INTO pne_restore.log SELECT unnest(touched), e;
  RETURN true;
END $$;
`

const { pgSettings } = require("./template-database")

// One connection per test database (the runner restores the same one all along).
const clients = new Map()

async function client(database) {
  let c = clients.get(database)
  if (!c) {
    c = (async () => {
      const { Client } = require("pg")
      const pg = new Client({ ...pgSettings(), database })
      pg.on("error", () => clients.delete(database))
      pg.on("end", () => clients.delete(database))
      await pg.connect()
      const { rows } = await pg.query("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
      pg.superuser = rows[0]?.rolsuper === true
      return pg
    })()
    clients.set(database, c)
    c.catch(() => clients.delete(database))
  }
  return c
}

const disabled = () => ["off", "clone"].includes(process.env.PNE_TEST_FAST_RESTORE)

/** Takes the in-place snapshot `key` of `database` (the caller still copies the template: the fallback). */
async function snapshotInPlace(database, key) {
  if (disabled()) return false
  const pg = await client(database)
  if (!pg.superuser) return false
  await pg.query(SETUP)
  await pg.query("SELECT pne_restore.snapshot($1)", [key])
  return true
}

/** Restores `database` to its in-place snapshot `key`; false when the caller must copy the template instead. */
async function restoreInPlace(database, key) {
  if (disabled()) return false
  const pg = await client(database)
  if (!pg.superuser) return false
  const { rows } = await pg.query("SELECT pne_restore.restore($1) AS done", [key])
  return rows[0].done === true
}

/** Closes the connection to `database` (before it is moved aside or dropped). */
async function release(database) {
  const c = clients.get(database)
  clients.delete(database)
  await (await c?.catch(() => undefined))?.end().catch(() => undefined)
}

module.exports = { snapshotInPlace, restoreInPlace, release }
