/** What the declarations of routes share: the key's security schemes and an error answer's shape. */
import { ErrorBody } from '../../src/contract/api';

export const API_KEY_SECURITY: Record<string, string[]>[] = [{ ServiceApiKey: [] }, { AuiApiKey: [] }];

/** An error status's answer in the OpenAPI document: the error body, described. */
export const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorBody } },
});
