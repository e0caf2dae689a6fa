import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { formatBytes } from "@/lib/format-bytes";
import { MessageFramer } from "./framer";
import { listEscapedDescendants, spawnInGroup, terminateGroup } from "./process-group";

/**
 * The stdio client transport, in our own form: the SDK's StdioClientTransport cannot start the
 * server in a process group (so it cannot stop `npx`'s grandchildren) and drops the whole
 * connection on one oversized message. Same protocol: newline-delimited JSON-RPC on stdin/stdout.
 */

export type ProcessExit = { code: number | null; signal: NodeJS.Signals | null; at: Date };

export type StdioLaunch = {
  /** The program to run (an absolute path once the policy check resolved it). */
  command: string;
  /** The command as configured, for messages (defaults to `command`). */
  displayCommand?: string;
  /** Run as this user instead of Switchboard's own (when Switchboard runs as root). */
  identity?: { uid: number; gid: number };
  args: string[];
  cwd?: string;
  /** The complete environment of the child (no implicit inheritance). */
  env: Record<string, string>;
  maxMessageBytes: number;
  killGraceMs: number;
  onSpawn: (pid: number) => void;
  onStderr: (text: string) => void;
  /** Things worth a line in the diagnostics: dropped oversized messages, stdout noise. */
  onNotice: (text: string) => void;
};

// Long enough for a well-behaved server to exit on EOF before it is signalled.
const STDIN_CLOSE_GRACE_MS = 300;
// After the leader exits, how long grandchildren may keep the pipes open before they are stopped.
const ORPHAN_PIPE_GRACE_MS = 200;

export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private readonly framer: MessageFramer;
  private exitInfo: ProcessExit | undefined;
  private finished = false;
  private stopping: Promise<void> | undefined;
  private readonly closed: Promise<void>;
  private markClosed!: () => void;

  constructor(private readonly launch: StdioLaunch) {
    this.framer = new MessageFramer(launch.maxMessageBytes);
    this.closed = new Promise((resolve) => {
      this.markClosed = resolve;
    });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  get isRunning(): boolean {
    return this.child !== undefined && !this.exitInfo && !this.finished;
  }

  start(): Promise<void> {
    if (this.child) throw new Error("This transport was already started.");
    const { command, args, cwd, env, identity } = this.launch;
    const shown = this.launch.displayCommand || command;
    return new Promise((resolve, reject) => {
      const child = spawnInGroup(command, args, { cwd, env, identity });
      this.child = child;
      child.once("spawn", () => {
        if (child.pid !== undefined) this.launch.onSpawn(child.pid);
        resolve();
      });
      child.once("error", (error) => {
        // Only spawn failures reach here before "spawn"; later ones are kill() errors we don't use.
        const described = describeSpawnError(
          error as NodeJS.ErrnoException,
          shown,
          cwd,
          this.launch.identity,
        );
        reject(described);
        this.finish();
      });
      child.stdout?.on("data", (chunk: Buffer) => this.readStdout(chunk));
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (text: string) => this.launch.onStderr(text));
      // EPIPE when the server is gone: the exit/close events tell the story.
      child.stdin?.on("error", () => {});
      child.once("exit", (code, signal) => {
        this.exitInfo = { code, signal, at: new Date() };
        // Pipes stay open while a grandchild holds them; the server is over when its leader is.
        setTimeout(async () => {
          await this.stopGroup();
          await Promise.race([this.closed, sleep(1000)]);
          this.finish();
        }, ORPHAN_PIPE_GRACE_MS).unref();
      });
      child.once("close", () => this.finish());
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin?.writable || !this.isRunning)
      throw new Error("Not connected: the server process is not running.");
    const json = serializeMessage(message);
    if (!stdin.write(json)) await new Promise<void>((resolve) => stdin.once("drain", resolve));
  }

  /** Ends the server: EOF on stdin, then SIGTERM and SIGKILL to its whole process group. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    if (this.finished) return this.stopGroup(); // the leader is gone; the rest of its group may not be
    const escaped = child.pid !== undefined && !this.exitInfo ? listEscapedDescendants(child.pid) : [];
    child.stdin?.end();
    if (!this.exitInfo) await Promise.race([this.closed, sleep(STDIN_CLOSE_GRACE_MS)]);
    await this.stopGroup(escaped);
    // A process outside the group may still hold a pipe: don't wait for it for ever.
    await Promise.race([this.closed, sleep(1000)]);
    this.finish();
  }

  /** Stops the group once; later callers wait for that same stop. */
  private stopGroup(escaped: number[] = []): Promise<void> {
    const pid = this.child?.pid;
    if (pid === undefined) return Promise.resolve();
    this.stopping ??= terminateGroup(pid, { graceMs: this.launch.killGraceMs, escaped });
    return this.stopping;
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    this.markClosed();
    this.onclose?.();
  }

  private readStdout(chunk: Buffer): void {
    for (const frame of this.framer.push(chunk)) {
      if (frame.kind === "message") {
        this.onmessage?.(frame.message);
      } else if (frame.kind === "oversized") {
        const text =
          `The server sent a ${formatBytes(frame.bytes)} message, over the ${formatBytes(this.launch.maxMessageBytes)} ` +
          "limit for one message; it was dropped.";
        this.launch.onNotice(text);
        // Fail just the request it answered; the connection stays up for every other call.
        if (frame.responseId !== undefined) {
          this.onmessage?.({
            jsonrpc: "2.0",
            id: frame.responseId,
            error: { code: ErrorCode.InternalError, message: text },
          });
        } else {
          this.onerror?.(new Error(text));
        }
      } else {
        this.launch.onNotice(`ignored a line on stdout that is not JSON-RPC: ${frame.line}`);
      }
    }
  }
}

function describeSpawnError(
  error: NodeJS.ErrnoException,
  command: string,
  cwd: string | undefined,
  identity: StdioLaunch["identity"],
): Error {
  if (error.code === "ENOENT" && cwd && !existsSync(cwd)) {
    return new Error(`The working directory "${cwd}" does not exist.`);
  }
  // A name searched on PATH as another user: a folder it may not enter answers EACCES, not ENOENT.
  if (error.code === "ENOENT" || (error.code === "EACCES" && identity && !command.includes("/")))
    return new Error(`Command not found: "${command}" (is it installed and on PATH?).`);
  if (error.code === "EACCES") {
    const who = identity ? ` by the user stdio servers run as (uid ${identity.uid})` : "";
    return new Error(`Permission denied running "${command}" (is it executable${who}?).`);
  }
  return new Error(`Could not start "${command}": ${error.message}`);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
