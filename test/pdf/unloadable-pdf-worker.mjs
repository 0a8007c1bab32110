// A PDF worker module that cannot load (as a missing or broken bundle would not): for the pool's specs.
throw new Error('this PDF worker cannot load');
