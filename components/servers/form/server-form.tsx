"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { createServerAction, updateServerAction } from "@/app/(dashboard)/servers/actions";
import { Alert } from "@/components/ui/alert";
import { Button, ButtonLink } from "@/components/ui/button";
import { Field, inputClass, TextArea, TextInput } from "@/components/ui/field";
import type { FieldErrors } from "@/lib/errors";
import type { ServerDto } from "@/lib/servers/server-dto";
import {
  fromValueView,
  KeyValueEditor,
  type KeyValueRow,
  toConfigRecord,
  toConfigValue,
  type ValueKind,
} from "./key-value-editor";
import { serverKeys } from "./server-queries";

type Transport = ServerDto["transport"];
type AuthType = "none" | "bearer" | "api_key" | "custom_header";

type FormState = {
  name: string;
  displayName: string;
  description: string;
  transport: Transport;
  command: string;
  args: string;
  cwd: string;
  env: KeyValueRow[];
  url: string;
  headers: KeyValueRow[];
  authType: AuthType;
  authHeaderName: string;
  authKind: ValueKind;
  authValue: string;
  enabled: boolean;
  connectTimeoutMs: string;
  callTimeoutMs: string;
  healthIntervalSeconds: string;
};

function initialState(server?: ServerDto): FormState {
  const rows = (record: Record<string, unknown> = {}) =>
    Object.entries(record).map(([key, value]) => ({ id: crypto.randomUUID(), key, ...fromValueView(value) }));
  const credential = fromValueView(server?.auth.credential ?? { secret: "" });
  return {
    name: server?.name ?? "",
    displayName: server?.displayName ?? "",
    description: server?.description ?? "",
    transport: server?.transport ?? "stdio",
    command: server?.command ?? "",
    args: (server?.args ?? []).join("\n"),
    cwd: server?.cwd ?? "",
    env: rows(server?.env),
    url: server?.url ?? "",
    headers: rows(server?.headers),
    authType: server?.auth.type === "oauth" ? "none" : (server?.auth.type ?? "none"),
    authHeaderName: server?.auth.headerName ?? "",
    authKind: credential.kind,
    authValue: credential.value,
    enabled: server?.enabled ?? true,
    connectTimeoutMs: String(server?.connectTimeoutMs ?? 10_000),
    callTimeoutMs: String(server?.callTimeoutMs ?? 30_000),
    healthIntervalSeconds: String(server?.healthIntervalSeconds ?? 60),
  };
}

/** The form's state in the request shape of POST /api/v1/servers; the server validates it. */
function toConfig(s: FormState): Record<string, unknown> {
  const number = (v: string) => (v.trim() === "" ? undefined : Number(v));
  const common = {
    name: s.name.trim(),
    displayName: s.displayName,
    description: s.description,
    transport: s.transport,
    enabled: s.enabled,
    connectTimeoutMs: number(s.connectTimeoutMs),
    callTimeoutMs: number(s.callTimeoutMs),
    healthIntervalSeconds: number(s.healthIntervalSeconds),
  };
  if (s.transport === "stdio") {
    const args = s.args.split("\n").filter((a) => a.trim() !== "");
    return { ...common, command: s.command, args, cwd: s.cwd, env: toConfigRecord(s.env) };
  }
  const credential = toConfigValue({ kind: s.authKind, value: s.authValue });
  const auth =
    s.authType === "none"
      ? { type: "none" }
      : s.authType === "bearer"
        ? { type: "bearer", credential }
        : { type: s.authType, headerName: s.authHeaderName.trim() || undefined, credential };
  return { ...common, url: s.url, headers: toConfigRecord(s.headers), auth };
}

/** The error keys a field of the form shows for this transport (env and headers by their rows' names). */
const FIELDS_SHOWN = {
  common: [
    "name",
    "displayName",
    "description",
    "connectTimeoutMs",
    "callTimeoutMs",
    "healthIntervalSeconds",
  ],
  stdio: ["command", "cwd", "args"],
  http: ["url", "auth", "auth.type", "auth.headerName", "auth.credential"],
};
function isShownBeside(field: string, s: FormState): boolean {
  if (FIELDS_SHOWN.common.includes(field)) return true;
  if (s.transport === "stdio") {
    return FIELDS_SHOWN.stdio.includes(field) || /^(args|env)\./.test(field) || field === "env";
  }
  if (field === "auth.credential") return s.authType !== "none";
  if (field === "auth.headerName") return s.authType === "api_key" || s.authType === "custom_header";
  return FIELDS_SHOWN.http.includes(field) || field === "headers" || field.startsWith("headers.");
}

const transportOptions: { value: Transport; label: string; hint: string }[] = [
  { value: "stdio", label: "stdio", hint: "A local command Switchboard starts" },
  { value: "streamable-http", label: "Streamable HTTP", hint: "A remote /mcp endpoint" },
  { value: "sse", label: "SSE", hint: "The older HTTP+SSE transport" },
];

export function ServerForm({ server }: { server?: ServerDto }) {
  const [state, setState] = useState(() => initialState(server));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();
  const queryClient = useQueryClient();
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setState((s) => ({ ...s, [key]: value }));
  const err = (field: string) => errors[field];
  // One argument's error ("args.2") belongs beside the arguments, saying which one.
  const argErrors = Object.entries(errors)
    .filter(([field]) => field === "args" || field.startsWith("args."))
    .flatMap(([field, messages]) => {
      const line = /^args\.(\d+)$/.exec(field)?.[1];
      return line === undefined ? messages : messages.map((m) => `Argument ${Number(line) + 1}: ${m}`);
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    startTransition(async () => {
      const config = toConfig(state);
      const result = server
        ? await updateServerAction(server.name, config)
        : await createServerAction(config);
      if (!result.ok) {
        const fieldErrors = result.error.fieldErrors ?? {};
        setErrors(fieldErrors);
        // Field errors are shown beside their fields; the banner says where to look (and which
        // policy refused), and says itself only what no field of the form shows.
        const shown = Object.keys(fieldErrors).filter((field) => isShownBeside(field, state));
        const unshown = Object.entries(fieldErrors)
          .filter(([field]) => !shown.includes(field))
          .flatMap(([, messages]) => messages);
        const refusedBy = /^Refused by (the instance policy|the workspace's egress policy)/.exec(
          result.error.message,
        )?.[1];
        const banner: string[] = [];
        if (shown.length > 0) {
          if (refusedBy) banner.push(`Refused by ${refusedBy}.`);
          banner.push(
            `Check the ${shown.length === 1 ? "highlighted field" : `${shown.length} highlighted fields`} below.`,
          );
        }
        if (unshown.length > 0) banner.push(...unshown);
        else if (shown.length === 0) banner.push(result.error.message);
        setFormError(banner.join(" "));
        return;
      }
      await queryClient.invalidateQueries({ queryKey: serverKeys.all });
      router.push("/servers");
    });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-8"
      aria-label={server ? "Edit server" : "Add server"}
    >
      {formError ? <Alert title="The server was not saved">{formError}</Alert> : null}

      <Section title="Identity">
        <Field
          id="name"
          label="Name"
          required
          errors={err("name")}
          hint="Lowercase slug; prefixes tool names as name__tool."
        >
          <TextInput
            id="name"
            value={state.name}
            invalid={!!err("name")}
            onChange={(e) => set("name", e.target.value)}
            placeholder="github"
            autoFocus={!server}
          />
        </Field>
        <Field id="displayName" label="Display name" errors={err("displayName")}>
          <TextInput
            id="displayName"
            value={state.displayName}
            onChange={(e) => set("displayName", e.target.value)}
            placeholder="GitHub"
          />
        </Field>
        <div className="sm:col-span-2">
          <Field id="description" label="Description" errors={err("description")}>
            <TextInput
              id="description"
              value={state.description}
              onChange={(e) => set("description", e.target.value)}
            />
          </Field>
        </div>
      </Section>

      <Section title="Connection">
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium text-slate-800">Transport</legend>
          <div className="mt-1 grid gap-2 sm:grid-cols-3">
            {transportOptions.map((option) => (
              <label
                key={option.value}
                className={`cursor-pointer rounded-md border px-3 py-2 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 ${
                  state.transport === option.value
                    ? "border-indigo-500 bg-indigo-50 ring-1 ring-indigo-500"
                    : "border-slate-300 bg-white"
                }`}
              >
                <input
                  type="radio"
                  name="transport"
                  value={option.value}
                  className="sr-only"
                  checked={state.transport === option.value}
                  onChange={() => set("transport", option.value)}
                />
                <span className="font-medium text-slate-900">{option.label}</span>
                <span className="block text-xs text-slate-500">{option.hint}</span>
              </label>
            ))}
          </div>
        </fieldset>

        {state.transport === "stdio" ? (
          <>
            <Field
              id="command"
              label="Command"
              required
              errors={err("command")}
              hint="Run directly, never through a shell."
            >
              <TextInput
                id="command"
                value={state.command}
                invalid={!!err("command")}
                onChange={(e) => set("command", e.target.value)}
                placeholder="npx"
                className={`${inputClass} font-mono`}
              />
            </Field>
            <Field id="cwd" label="Working directory" errors={err("cwd")}>
              <TextInput
                id="cwd"
                value={state.cwd}
                invalid={!!err("cwd")}
                onChange={(e) => set("cwd", e.target.value)}
                placeholder="/srv/mcp"
              />
            </Field>
            <div className="sm:col-span-2">
              <Field id="args" label="Arguments" errors={argErrors} hint="One argument per line.">
                <TextArea
                  id="args"
                  rows={3}
                  value={state.args}
                  invalid={argErrors.length > 0}
                  onChange={(e) => set("args", e.target.value)}
                  placeholder={"-y\n@modelcontextprotocol/server-everything"}
                />
              </Field>
            </div>
            <div className="sm:col-span-2">
              <KeyValueEditor
                id="env"
                label="Environment"
                keyPlaceholder="NAME"
                rows={state.env}
                onChange={(rows) => set("env", rows)}
                errors={errors}
                errorPrefix="env"
              />
            </div>
          </>
        ) : (
          <>
            <div className="sm:col-span-2">
              <Field
                id="url"
                label="URL"
                required
                errors={err("url")}
                hint="Switchboard connects to this endpoint."
              >
                <TextInput
                  id="url"
                  type="url"
                  value={state.url}
                  invalid={!!err("url")}
                  onChange={(e) => set("url", e.target.value)}
                  placeholder="https://mcp.example.com/mcp"
                />
              </Field>
            </div>
            <Field id="authType" label="Authentication" errors={err("auth") ?? err("auth.type")}>
              <select
                id="authType"
                className={inputClass}
                value={state.authType}
                onChange={(e) => set("authType", e.target.value as AuthType)}
              >
                <option value="none">None</option>
                <option value="bearer">Bearer token</option>
                <option value="api_key">API key header</option>
                <option value="custom_header">Custom header</option>
              </select>
            </Field>
            {state.authType === "api_key" || state.authType === "custom_header" ? (
              <Field id="authHeaderName" label="Header name" errors={err("auth.headerName")}>
                <TextInput
                  id="authHeaderName"
                  value={state.authHeaderName}
                  onChange={(e) => set("authHeaderName", e.target.value)}
                  placeholder={state.authType === "api_key" ? "X-API-Key" : "X-Token"}
                />
              </Field>
            ) : null}
            {state.authType !== "none" ? (
              <Field
                id="authValue"
                label="Credential"
                errors={err("auth.credential")}
                hint="Prefer a stored secret: its value is never shown again."
              >
                <div className="flex gap-2">
                  <select
                    aria-label="Credential kind"
                    className={`${inputClass} max-w-[9rem]`}
                    value={state.authKind}
                    onChange={(e) => set("authKind", e.target.value as ValueKind)}
                  >
                    <option value="secret">Secret</option>
                    <option value="env">Env var</option>
                    <option value="text">Text</option>
                  </select>
                  <TextInput
                    id="authValue"
                    value={state.authValue}
                    invalid={!!err("auth.credential")}
                    onChange={(e) => set("authValue", e.target.value)}
                    placeholder={
                      state.authKind === "secret"
                        ? "secret name"
                        : state.authKind === "env"
                          ? "VARIABLE_NAME"
                          : "value"
                    }
                  />
                </div>
              </Field>
            ) : null}
            <div className="sm:col-span-2">
              <KeyValueEditor
                id="headers"
                label="Headers"
                keyPlaceholder="X-Header"
                rows={state.headers}
                onChange={(rows) => set("headers", rows)}
                errors={errors}
                errorPrefix="headers"
              />
            </div>
          </>
        )}
      </Section>

      <Section title="Behaviour">
        <Field id="connectTimeoutMs" label="Connect timeout (ms)" errors={err("connectTimeoutMs")}>
          <TextInput
            id="connectTimeoutMs"
            inputMode="numeric"
            value={state.connectTimeoutMs}
            invalid={!!err("connectTimeoutMs")}
            onChange={(e) => set("connectTimeoutMs", e.target.value)}
          />
        </Field>
        <Field id="callTimeoutMs" label="Call timeout (ms)" errors={err("callTimeoutMs")}>
          <TextInput
            id="callTimeoutMs"
            inputMode="numeric"
            value={state.callTimeoutMs}
            invalid={!!err("callTimeoutMs")}
            onChange={(e) => set("callTimeoutMs", e.target.value)}
          />
        </Field>
        <Field
          id="healthIntervalSeconds"
          label="Health check every (s)"
          errors={err("healthIntervalSeconds")}
        >
          <TextInput
            id="healthIntervalSeconds"
            inputMode="numeric"
            value={state.healthIntervalSeconds}
            invalid={!!err("healthIntervalSeconds")}
            onChange={(e) => set("healthIntervalSeconds", e.target.value)}
          />
        </Field>
        <label className="flex items-center gap-2 self-end pb-1.5 text-sm text-slate-800">
          <input
            type="checkbox"
            checked={state.enabled}
            onChange={(e) => set("enabled", e.target.checked)}
            className="h-4 w-4 rounded border-slate-300"
          />
          Enabled — Switchboard connects to it
        </label>
      </Section>

      <div className="flex justify-end gap-2 border-t border-slate-200 pt-6">
        <ButtonLink variant="secondary" href="/servers">
          Cancel
        </ButtonLink>
        <Button type="submit" disabled={isPending}>
          {isPending ? "Saving…" : server ? "Save changes" : "Add server"}
        </Button>
      </div>
    </form>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 className="mb-4 text-sm font-semibold uppercase tracking-wide text-slate-500">{title}</h2>
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </section>
  );
}
