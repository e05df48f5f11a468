import { lookup } from 'node:dns/promises';
import { isIP, Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { CheckResult } from './report';

/** The host and port a base URL points at. */
export interface Target {
  readonly url: URL;
  readonly host: string;
  readonly port: number;
}

export function targetOf(url: URL): Target {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return { url, host, port };
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

const FIX = 'MOMO_BASE_URL';

/** The host name resolves (an IP address needs no resolving). */
export async function resolves(target: Target): Promise<CheckResult> {
  if (isIP(target.host)) {
    return { status: 'ok', message: `${target.host} is an IP address (nothing to resolve)` };
  }
  try {
    const { address } = await lookup(target.host);
    return { status: 'ok', message: `${target.host} resolves to ${address}` };
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'error';
    return {
      status: 'fail',
      message: `${target.host} does not resolve (${code}): check the host name in ${FIX}`,
      fix: FIX,
    };
  }
}

/** A TCP connection to the host and port opens within the timeout. */
export function reaches(target: Target, timeoutMs: number): Promise<CheckResult> {
  const where = `${target.host}:${target.port}`;
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (result: CheckResult) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () =>
      done({
        status: 'fail',
        message: `${where} did not answer within ${timeoutMs} ms: check ${FIX}, your network or proxy`,
        fix: FIX,
      }),
    );
    socket.once('error', (error: Error & { code?: string }) =>
      done({
        status: 'fail',
        message: `${where} cannot be reached (${error.code ?? error.message}): check ${FIX}`,
        fix: FIX,
      }),
    );
    socket.connect(target.port, target.host, () =>
      done({ status: 'ok', message: `${where} accepts connections` }),
    );
  });
}

/**
 * https: the certificate is valid for the host (Node's own CA checks, as the SDK's
 * requests make them). http: fine on loopback (a simulator); anywhere else a warning.
 */
export function tls(target: Target, timeoutMs: number): Promise<CheckResult> {
  if (target.url.protocol === 'http:') {
    return Promise.resolve(
      isLoopback(target.host)
        ? { status: 'skip', message: 'plain http to a loopback host (a simulator or test server)' }
        : {
            status: 'warn',
            message: `plain http to ${target.host}: acceptable for a test host only, never for the provider; use https in ${FIX}`,
            fix: FIX,
          },
    );
  }
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: target.host,
      port: target.port,
      servername: isIP(target.host) ? undefined : target.host,
      timeout: timeoutMs,
    });
    const done = (result: CheckResult) => {
      socket.destroy();
      resolve(result);
    };
    socket.once('secureConnect', () => {
      const until = socket.getPeerCertificate().valid_to;
      done({
        status: 'ok',
        message: `${socket.getProtocol() ?? 'TLS'}, certificate valid for ${target.host}${until ? ` until ${until}` : ''}`,
      });
    });
    socket.once('timeout', () =>
      done({ status: 'fail', message: `no TLS handshake within ${timeoutMs} ms`, fix: FIX }),
    );
    socket.once('error', (error: Error & { code?: string }) =>
      done({
        status: 'fail',
        message: `TLS failed (${error.code ?? error.message}): is ${FIX} the provider's https address?`,
        fix: FIX,
      }),
    );
  });
}
