/** A self-signed serving certificate for the simulated kubelets' HTTPS log endpoints. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** PEM key and certificate. */
export interface ServingCert {
  key: string;
  cert: string;
}

let cached: ServingCert | undefined;

/**
 * Generates (once per process) a self-signed certificate for 127.0.0.1 with `openssl`. The
 * apiserver does not verify kubelet serving certs unless `--kubelet-certificate-authority` is set.
 */
export function servingCert(): ServingCert {
  if (cached) return cached;
  const dir = mkdtempSync(path.join(tmpdir(), 'sim-kubelet-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '365',
        '-subj',
        '/CN=sim-kubelet',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    cached = { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
    return cached;
  } catch (err) {
    throw new Error(`could not generate the simulated kubelet's serving certificate with openssl: ${(err as Error).message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
