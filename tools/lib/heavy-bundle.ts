/**
 * A valid bundle whose every turn is heavy: 800 global rules applied to a main tool and to each of
 * the `subTools` sub-tools it runs first. With 30 sub-tools a turn evaluates about 25,000 rules and
 * writes a trace of about 7,400,000 characters, just under the service's 8,000,000-character
 * trace limit (1,000 rules would pass it and be refused with a 422 after most of the work).
 */
export function heavyBundle(subTools: number): Record<string, unknown> {
  return {
    rules: Array.from({ length: 800 }, (_, i) => ({ code: `G${i}`, when: null, then: { action: 'TEXT' } })),
    parameters: [{ code: 'amount', type: 'numeric' }],
    agent_tools: [
      {
        code: 'DISPUTE_CHARGE',
        name: 'Dispute a charge',
        main_tool: true,
        rules: {
          pre: {
            constraint: Array.from({ length: subTools }, (_, i) => ({
              when: null,
              then: { action: 'ACTIVATE_SUB_TOOL', settings: { tool: `SUB_${i}` } },
            })),
          },
        },
      },
      ...Array.from({ length: subTools }, (_, i) => ({ code: `SUB_${i}`, name: `Sub ${i}` })),
    ],
  };
}
