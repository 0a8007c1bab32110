import { expect } from 'vitest';
import { fold, isRefusal, type Decider } from '../../src/events/decider.ts';

/**
 * Given / when / then for a decider:
 *   spec.given([...events]).when(command).then([...expected events])
 *   spec.given([...events]).when(command).thenRefused('code')
 *   spec.given([...events]).when(command).thenNothingHappens()
 */
export const deciderSpec = <State, Command, Event>(decider: Decider<State, Command, Event>) => ({
  given: (events: readonly Event[]) => ({
    when: (command: Command) => {
      const decision = () => decider.decide(command, fold(decider, events));
      return {
        then: (expected: readonly Event[]) => {
          const result = decision();
          if (isRefusal(result)) throw new Error(`expected events, got refusal ${result.code}: ${result.message}`);
          expect(result).toEqual(expected);
        },
        thenRefused: (code: string) => {
          const result = decision();
          expect(isRefusal(result), 'expected a refusal').toBe(true);
          if (isRefusal(result)) expect(result.code).toBe(code);
        },
        thenNothingHappens: () => {
          expect(decision()).toEqual([]);
        },
      };
    },
  }),
});
