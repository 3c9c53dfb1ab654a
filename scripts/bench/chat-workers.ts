// The processes that hold the chat benchmark's realtime clients and its sender
// (chat-clients.ts), driven over IPC: each request is answered by one message of a type.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FromWorker, ToWorker } from "./chat-clients.ts";

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), "chat-clients.ts");

export interface Worker {
  child: ChildProcess;
  request<T extends FromWorker["type"]>(message: ToWorker, answer: T): Promise<Extract<FromWorker, { type: T }>>;
}

export function startWorker(): Worker {
  // The tsx loader this script runs under is in process.execArgv, which fork passes on.
  const child = fork(WORKER, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return {
    child,
    request: (message, answer) =>
      new Promise((resolve, reject) => {
        const onMessage = (m: FromWorker) => {
          if (m.type !== answer) return;
          child.off("message", onMessage);
          child.off("exit", onExit);
          resolve(m as never);
        };
        const onExit = (code: number | null) => reject(new Error(`a chat client process exited (${code}) during ${message.type}`));
        child.on("message", onMessage);
        child.once("exit", onExit);
        child.send(message);
      }),
  };
}
