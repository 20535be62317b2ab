/** The control plane's credentials: admin token, service-account key pair, and the admin kubeconfig. */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** Files (and the token) written by {@link writeSecrets}. */
export interface SecretFiles {
  token: string;
  tokenFile: string;
  saPrivate: string;
  saPublic: string;
}

/** Writes a random admin token file and a service-account RSA key pair into `dir`. */
export function writeSecrets(dir: string): SecretFiles {
  const token = randomBytes(24).toString('hex');
  const tokenFile = path.join(dir, 'tokens.csv');
  writeFileSync(tokenFile, `${token},admin,admin,"system:masters"\n`, { mode: 0o600 });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const saPrivate = path.join(dir, 'sa.key');
  const saPublic = path.join(dir, 'sa.pub');
  writeFileSync(saPrivate, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
  writeFileSync(saPublic, publicKey.export({ type: 'spki', format: 'pem' }));
  return { token, tokenFile, saPrivate, saPublic };
}

/** An admin kubeconfig (token user, context namespace `default`) for `server`. */
export function kubeconfigYaml(server: string, ca: Buffer, token: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: rollout-trace-local',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${ca.toString('base64')}`,
    'users:',
    '- name: admin',
    '  user:',
    `    token: ${token}`,
    'contexts:',
    '- name: rollout-trace-local',
    '  context:',
    '    cluster: rollout-trace-local',
    '    user: admin',
    '    namespace: default',
    'current-context: rollout-trace-local',
    '',
  ].join('\n');
}
