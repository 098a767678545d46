import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validationError } from './errors';

describe('validationError', () => {
  const schema = z.object({ type: z.literal('message'), text: z.string().min(1), n: z.number().optional() });

  it('names missing fields and wrong values with FastAPI-style locations', () => {
    const input = { type: 'note', n: 'x' };
    const result = schema.safeParse(input);
    if (result.success) throw new Error('expected a failure');
    const error = validationError(result.error.issues, 'body', input);
    expect(error.status).toBe(422);
    expect(error.body.error).toBe('Unprocessable Entity');
    const byLoc = Object.fromEntries(error.body.detail!.map((d) => [d.loc.join('.'), d]));
    expect(byLoc['body.text']).toMatchObject({ msg: 'Field required', type: 'missing' });
    expect(byLoc['body.type']?.type).toBe('invalid_value');
    expect(byLoc['body.n']?.type).toBe('invalid_type');
    expect(error.body.message).toContain('body.text: Field required');
  });
});
