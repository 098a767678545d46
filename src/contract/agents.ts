/**
 * The reference-only agent endpoints (`/reference/v1/agents/...`): agents created through the API,
 * their draft, published versions and active version, and the reload of agent folders.
 */
import { z } from 'zod';
import { AgentSource, AgentVersion } from './api';

const BundleObject = z.record(z.string(), z.unknown());
const Tag = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-"');

export const CreateAgentRequest = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
      'letters, digits, ".", "_" and "-", starting with a letter or digit',
    )
    .optional()
    .describe(
      "The agent's id; when omitted, the bundle's general_settings.id, else one made from general_settings.name.",
    ),
  bundle: BundleObject.describe('The first version (v1, active) and the draft.'),
  tag: Tag.optional().describe('Tag of the first version (default v1).'),
  note: z.string().max(2000).optional().describe('What the first version is.'),
});

export const PublishRequest = z.object({
  bundle: BundleObject.optional().describe(
    'The bundle to publish (it also becomes the draft); the draft when omitted.',
  ),
  tag: Tag.optional().describe("The new version's tag (default v<n>); unique within the agent."),
  note: z.string().max(2000).optional().describe('What changed.'),
  activate: z.boolean().optional().describe('Make the new version the active one too.'),
});

export const ActivateRequest = z.object({
  version: z.string().min(1).max(200).describe('Version id or tag.'),
});

export const DraftBody = z.object({ bundle: BundleObject });
export const DraftResponse = z.object({
  agent_id: z.string(),
  bundle: BundleObject,
  updated_at: z.string(),
});

const AgentVersionDetail = AgentVersion.extend({ created_at: z.string().nullable() });
export const AgentDetail = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  source: AgentSource,
  active_version: z.string(),
  versions: z.array(AgentVersionDetail),
  welcome_message: z.string().nullable().describe("The active version's welcome message."),
  suggestions: z.array(z.string()).describe("The active version's starter suggestions."),
});
export type AgentDetail = z.infer<typeof AgentDetail>;

export const AgentLoadProblem = z.object({
  project: z.string(),
  file: z.string(),
  path: z.string(),
  message: z.string(),
  severity: z
    .enum(['error', 'warning'])
    .describe(
      "`error`: the project was skipped; `warning`: it loaded, but this part of it was ignored (e.g. a file whose name is not a project file's).",
    ),
});
export type AgentLoadProblem = z.infer<typeof AgentLoadProblem>;

export const ReloadResponse = z.object({
  agents: z.array(z.string()).describe('The agents loaded from folders.'),
  problems: z
    .array(AgentLoadProblem)
    .describe('Projects skipped, and why (`error`); parts of loaded projects ignored (`warning`).'),
});
export const AgentProblemsResponse = z.object({ problems: z.array(AgentLoadProblem) });
