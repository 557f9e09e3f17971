// Invalid input a worker found while running a cell (a bad market row), or a period the market data does not
// cover: the CLI answers exit 2. Its own module so the CLI's error handling names it without loading the back-tester.
export class BacktestInputError extends Error {
  override name = 'BacktestInputError';
}
