/**
 * What a prediction needs from the rest of the app, handed in by the shell (app/feature-slots.tsx)
 * so the what-if chunks import no more of the app than before: whether the service keeps the state
 * before its turns (the reference service, which lists its agents), and the thread's agent and
 * acting user. Without it (tests, a read-only copy) the service is taken to keep its turns.
 */
import { createContext } from 'react';

export interface PredictionBasis {
  /** The service keeps the state before its turns (undefined until known). */
  serviceKeepsTurns: boolean | undefined;
  /** The thread's agent ('' when this browser does not know it). */
  agentId: string;
  userId: string;
}

export type UsePredictionBasis = (taskId: string) => PredictionBasis;

const referenceOnly: UsePredictionBasis = () => ({
  serviceKeepsTurns: true,
  agentId: '',
  userId: '',
});

/** The hook that reads the basis (a constant: the shell's, else `referenceOnly`). */
export const PredictionBasisContext = createContext<UsePredictionBasis>(referenceOnly);
