/** What "Open as thread" asks the app for: a new thread of the agent running `bundle`, the messages sent in order. */
export interface WitnessThreadRequest {
  agentId: string;
  /** The head side's bundle (it validates). */
  bundle: Record<string, unknown>;
  messages: readonly string[];
}

/** Opens the thread and sends the messages; rejects with what went wrong. */
export type OpenWitnessThread = (request: WitnessThreadRequest) => Promise<void>;
