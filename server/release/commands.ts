// The release file's commands (`proxy-shop help`), parsed by the launcher (launcher.ts)
// before anything is extracted. Builtins only: the launcher runs inside Node's
// single-executable runtime, where `require` sees nothing else.
import path from "node:path";
import { parseArgs } from "node:util";

export const PRODUCT = "proxy-shop";

export interface CommandLine {
  command: string;
  /** Positional arguments after the command (`restore <zip|replica-url>`, `admin create <email>`). */
  args: string[];
  /** `--http host:port`. */
  http?: string;
  /** `--data <dir>`, as given. */
  data?: string;
}

/** The commands, in the order help lists them. `serve` runs when none is given. */
export const COMMANDS: { usage: string; what: string }[] = [
  { usage: "serve [--http 127.0.0.1:4321] [--data ./shop-data]", what: "Run the shop (the default command)." },
  { usage: "backup [--data ./shop-data]", what: "Write a backup zip of the data dir (made by PocketBase) to the working directory." },
  {
    usage: "restore <zip|replica-url> [--data ./shop-data]",
    what: "Restore a backup zip or a Litestream replica into an empty or new data dir.",
  },
  { usage: "admin create <email> [--data ./shop-data]", what: "Print a one-time link that creates a shop administrator." },
  { usage: "doctor [--data ./shop-data]", what: "Check the settings a real shop needs, each ok or missing." },
  { usage: "version", what: "Print the version." },
  { usage: "help", what: "Print this help." },
];

export const COMMAND_NAMES = COMMANDS.map((c) => c.usage.split(" ")[0]!);

export function helpText(version: string): string {
  const width = Math.max(...COMMANDS.map((c) => c.usage.length));
  return `${PRODUCT} ${version}: a proxy shop in one file.

Usage: ${PRODUCT} [command] [options]

Commands:
${COMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${c.what}`).join("\n")}

Settings come from the environment, or from a .env file beside this file (the environment
wins): HOST, PORT, APP_URL, SMTP_*, STRIPE_*, LITESTREAM_REPLICA, PB_DATA_DIR ...
--http overrides HOST and PORT; --data overrides PB_DATA_DIR (default ./shop-data, from the
working directory). The credentials key is kept in .secrets/ beside the data dir (or set
SHOP_CREDENTIALS_KEY): back it up apart from the data. On first run the shop's files are
extracted to .proxy-shop-runtime/ beside the data dir; nothing is downloaded.
`;
}

/** Parses the command line (without the executable); throws with a message for a person. */
export function parseCommandLine(argv: string[]): CommandLine {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      http: { type: "string" },
      data: { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return { command: "help", args: [] };
  if (values.version) return { command: "version", args: [] };
  const [command = "serve", ...args] = positionals;
  if (!COMMAND_NAMES.includes(command)) throw new Error(`Unknown command "${command}".`);
  return {
    command,
    args,
    ...(values.http === undefined ? {} : { http: values.http }),
    ...(values.data === undefined ? {} : { data: values.data }),
  };
}

/** The data dir: --data, else PB_DATA_DIR, else ./shop-data; relative to the working directory. */
export function resolveDataDir(line: CommandLine, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(line.data ?? (env["PB_DATA_DIR"] || "shop-data"));
}

/**
 * The folder the release extracts its files into: .proxy-shop-runtime/<name> beside the
 * data dir (never inside it: PocketBase's backups zip the data dir), one per build.
 */
export function runtimeParent(dataDir: string): string {
  return path.join(path.dirname(dataDir), ".proxy-shop-runtime");
}
