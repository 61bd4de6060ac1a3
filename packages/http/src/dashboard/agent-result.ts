import {
  agentOptionsOf,
  agentView,
  deepResearchView,
  extractView,
  isAgentJob,
  llmsTxtView,
  type AgentRunState,
  type AgentState,
  jobOfKind,
  type ExtractState,
  type JobRecord,
  type AgentStates,
  type LlmsTxtState,
  type ResearchState,
} from '@quarry/core';
import { html, type Html } from './html.js';

/**
 * The result of an extract, deep research, llms.txt or agent job on its dashboard page: the same view the
 * API's GET answers with, as JSON (escaped like every value the dashboard shows).
 */
export async function agentResultSection(jobs: AgentStates, job: JobRecord): Promise<Html | ''> {
  if (!isAgentJob(job)) return '';
  const program = ((await jobs.getJobState(job.id))?.value as AgentState<unknown> | undefined)?.program;
  const view =
    job.kind === 'extract'
      ? extractView(program as ExtractState | undefined)
      : job.kind === 'llmstxt'
        ? llmsTxtView(program as LlmsTxtState | undefined)
        : job.kind === 'agent'
          ? agentView(agentOptionsOf(job), program as AgentRunState | undefined)
          : deepResearchView(jobOfKind(job, 'deep_research').request.options, program as ResearchState | undefined);
  return html`<h2>Result</h2>
<pre class="json" aria-label="Result as JSON">${JSON.stringify(view, null, 2)}</pre>`;
}
