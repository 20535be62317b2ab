/** Every area of pk's test cases restated here, in the order the figure's table lists them. */
import type { PkArea } from './case.js';
import { daemonSetCases, daemonSetDisagreements, daemonSetUncovered } from './daemonset.js';
import { deploymentCases, deploymentDisagreements } from './deployment.js';
import { deploymentMoreCases, deploymentMoreDisagreements } from './deployment-more.js';
import { jobCases, jobDisagreements } from './job.js';
import { ingressUncovered, podUncovered, serviceUncovered } from './not-covered-kinds.js';
import {
  customConditionUncovered,
  deletedUncovered,
  diffUncovered,
  jsonPathUncovered,
  readyConditionUncovered,
} from './not-covered-provider.js';
import { statefulSetCases, statefulSetDisagreements } from './statefulset.js';

/** An area of cases we do not decide yet. */
const uncovered = (area: string, cases: PkArea['uncovered']): PkArea => ({ area, cases: [], uncovered: cases, disagreements: [] });

/** The areas, each with its covered cases, its uncovered ones and its documented disagreements. */
export const PK_AREAS: PkArea[] = [
  { area: 'Deployment await (deployment_test.go)', cases: deploymentCases, uncovered: [], disagreements: deploymentDisagreements },
  {
    area: 'Deployment claims, updates and reads (deployment_test.go)',
    cases: deploymentMoreCases,
    uncovered: [],
    disagreements: deploymentMoreDisagreements,
  },
  { area: 'StatefulSet (statefulset_test.go)', cases: statefulSetCases, uncovered: [], disagreements: statefulSetDisagreements },
  { area: 'DaemonSet (daemonset_test.go)', cases: daemonSetCases, uncovered: daemonSetUncovered, disagreements: daemonSetDisagreements },
  { area: 'Job (checker/job/check_test.go, recorded workflows)', cases: jobCases, uncovered: [], disagreements: jobDisagreements },
  uncovered('Service (service_test.go)', serviceUncovered),
  uncovered('Ingress (ingress_test.go)', ingressUncovered),
  uncovered('Pod (checker/pod/check_test.go, recorded workflows)', podUncovered),
  uncovered('waitFor conditions (condition/custom_test.go, jsonpath_test.go)', [...customConditionUncovered, ...jsonPathUncovered]),
  uncovered('generic readiness and delete waits (condition/ready_test.go, deleted_test.go)', [
    ...readyConditionUncovered,
    ...deletedUncovered,
  ]),
  uncovered('replacement (provider/diff_test.go)', diffUncovered),
];
