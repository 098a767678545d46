/** The five card-disputes turns the service benchmarks keep in the task whose traces they read. */
export const FIVE_TURNS = [
  'I want to dispute a charge',
  'It was a duplicate charge',
  '$42.50',
  'yesterday',
  'jane@example.com',
];
