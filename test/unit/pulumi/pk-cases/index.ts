/** Every area of pk's test cases restated here, in the order the figure's table lists them. */
import type { PkArea } from './case.js';
import { deploymentCases, deploymentDisagreements } from './deployment.js';

export const PK_AREAS: PkArea[] = [
  {
    area: 'Deployment (deployment_test.go Test_Apps_Deployment)',
    cases: deploymentCases,
    uncovered: [],
    disagreements: deploymentDisagreements,
  },
];
