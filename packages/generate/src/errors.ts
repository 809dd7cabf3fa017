/** Typed errors of the HTTP server and the guard worker pool. */
import { NpovError } from "@npov/core";

/** The port is taken (code `PORT_IN_USE`). */
export class PortInUseError extends NpovError {
  constructor(host: string, port: number) {
    super(
      "PORT_IN_USE",
      `port ${port} on ${host} is already in use: stop the other server or choose another --port (0 = any free port).`,
    );
  }
}

/** The port needs privileges this process does not have (ports below 1024 on most systems). */
export class PortNotPermittedError extends NpovError {
  constructor(host: string, port: number) {
    super(
      "PORT_NOT_PERMITTED",
      `not allowed to listen on port ${port} on ${host} (ports below 1024 need privileges): choose a port from 1024 to 65535, or 0 for any free port.`,
    );
  }
}

/** The host is not a name that resolves or not an address of this machine. */
export class HostUnavailableError extends NpovError {
  constructor(host: string, reason: string) {
    super(
      "HOST_UNAVAILABLE",
      `cannot listen on host ${JSON.stringify(host)} (${reason}): give an address of this machine such as 127.0.0.1 (the default), ::1, or 0.0.0.0 for every interface.`,
    );
  }
}

/** A guard worker thread crashed, failed to start, or the pool was closed while a check waited. */
export class GuardWorkerError extends NpovError {
  constructor(message: string, cause?: unknown) {
    super("GUARD_WORKER_FAILED", message, cause === undefined ? {} : { cause });
  }
}

/** Every guard worker is busy and the queue of waiting checks is full: retry later. */
export class GuardBusyError extends NpovError {
  constructor(queued: number) {
    super(
      "GUARD_BUSY",
      `${queued} checks are already waiting for a guard worker: retry in a moment, or start the server with more --guard-threads.`,
    );
  }
}
