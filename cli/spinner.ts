import { stderrColors } from "./output";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * Progress on stderr. On a terminal it animates and erases itself; elsewhere (CI logs, pipes) each
 * distinct message is printed once, so logs show what happened without a wall of frames.
 */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private text = "";
  private readonly isTty = Boolean(process.stderr.isTTY);

  start(text: string): this {
    this.update(text);
    if (this.isTty && !this.timer) {
      this.timer = setInterval(() => this.draw(), 80);
      this.timer.unref();
      process.once("SIGINT", this.onInterrupt);
      process.once("exit", this.onExit);
    }
    return this;
  }

  update(text: string): void {
    if (text === this.text) return;
    this.text = text;
    if (this.isTty) this.draw();
    else process.stderr.write(`${text}\n`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    process.off("SIGINT", this.onInterrupt);
    process.off("exit", this.onExit);
    if (this.isTty && this.text) process.stderr.write("\r\u001b[2K");
    this.text = "";
  }

  /**
   * Ctrl-C while a spinner draws: Node's default was to die mid-line, leaving "⠋ Checking …"
   * with the shell's prompt glued to it. Say what was cut short, on a line of its own, and exit
   * the way an interrupted program does (128 + SIGINT).
   */
  private readonly onInterrupt = () => {
    const text = this.text;
    this.stop();
    process.stderr.write(`${text ? `${text} ` : ""}interrupted.\n`);
    process.exit(130);
  };

  /** Any other way out (process.exit elsewhere) still leaves the terminal on a clean line. */
  private readonly onExit = () => {
    if (this.text) process.stderr.write("\r\u001b[2K");
  };

  private draw(): void {
    const frame = FRAMES[this.frame++ % FRAMES.length] ?? "";
    process.stderr.write(`\r\u001b[2K${stderrColors().cyan(frame)} ${this.text}`);
  }
}

/** Runs a task with a spinner that is always stopped, whatever happens. */
export async function withSpinner<T>(text: string, task: (spinner: Spinner) => Promise<T>): Promise<T> {
  const spinner = new Spinner().start(text);
  try {
    return await task(spinner);
  } finally {
    spinner.stop();
  }
}
