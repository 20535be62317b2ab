// The floor of a scenario's CPU: a Node process that receives what rollout-trace receives there
// (the same kinds: the workload's, Pods with the same label selector, Events, Nodes, and a
// Deployment's ReplicaSets; a list then a watch each, over node:https with the same token) and only
// parses each object with JSON.parse: no state, no reducer, no output. Like rollout-trace, it passes
// over a pod's routine Normal Event unparsed, with our own test (from the build, dist/: `npm run
// bench` builds first; loading it costs ~0.04 s). It exits when a Deployment is complete by
// kubectl's test, or when its stdin ends (the bench ends it when rollout-trace exited). Whatever
// this costs, any Node client that reads these objects costs (docs/performance.md, "Current figures").
//
// Usage: node bench/bare-watch.mjs NAMESPACE NAME LABEL_SELECTOR [RESOURCE]
// RESOURCE: deployments (default), statefulsets, daemonsets or jobs.
// Env: BARE_SERVER (https URL), BARE_TOKEN, BARE_CA (PEM). Prints {"objects":N,"skipped":S,"bytes":B} at exit (objects parsed, lines passed over).
import https from 'node:https';
import { routinePodEventLineVersion } from '../dist/cluster/relevance.js';

const [namespace, name, selector, resource = 'deployments'] = process.argv.slice(2);
const { BARE_SERVER: server, BARE_TOKEN: token, BARE_CA: ca } = process.env;
const agent = new https.Agent({ keepAlive: true, ca });
let objects = 0;
let skipped = 0;
let bytes = 0;

/** GET `path` with `query`; `onChunk` gets each body chunk; resolves at the end of the body. */
function get(path, query, onChunk) {
  const url = new URL(`${server}${path}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  return new Promise((resolve, reject) => {
    const req = https.get(url, { agent, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        bytes += chunk.length;
        onChunk(chunk);
      });
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

function complete(d) {
  const s = d.status ?? {};
  const want = d.spec?.replicas ?? 1;
  return (
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
    s.updatedReplicas === want &&
    s.replicas === want &&
    s.availableReplicas === want
  );
}

function done() {
  process.stdout.write(`${JSON.stringify({ objects, skipped, bytes })}\n`);
  process.exit(0);
}

function seen(kind, object) {
  objects++;
  if (kind === 'deployments' && object?.metadata?.name === name && complete(object)) done();
}

process.stdin.on('end', done);
process.stdin.resume();

async function listAndWatch(kind, path, query) {
  let body = '';
  await get(path, query, (chunk) => {
    body += chunk;
  });
  const list = JSON.parse(body);
  for (const item of list.items ?? []) seen(kind, item);
  let rest = '';
  await get(
    path,
    { ...query, watch: 1, allowWatchBookmarks: true, resourceVersion: list.metadata?.resourceVersion, timeoutSeconds: 1800 },
    (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        if (kind === 'events' && routinePodEventLineVersion(line) !== undefined) skipped++;
        else seen(kind, JSON.parse(line).object);
      }
    },
  );
}

const ns = `/namespaces/${namespace}`;
const group = resource === 'jobs' ? '/apis/batch/v1' : '/apis/apps/v1';
await Promise.all([
  listAndWatch(resource, `${group}${ns}/${resource}`, {}),
  ...(resource === 'deployments' ? [listAndWatch('replicasets', `/apis/apps/v1${ns}/replicasets`, { labelSelector: selector })] : []),
  listAndWatch('pods', `/api/v1${ns}/pods`, { labelSelector: selector }),
  listAndWatch('events', `/api/v1${ns}/events`, {}),
  listAndWatch('nodes', '/api/v1/nodes', {}),
]);
