import { it } from 'vitest';
import { dropThen401 } from '../support/drop-then-401';

it('drop, then 401: the caller told, the memory journal keeps the id pending, a lookup settles it', async () => {
  await dropThen401();
});
