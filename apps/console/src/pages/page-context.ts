import type { Environment, MerchantApi, Session } from '../api';

/** What every page is given by the shell: the merchant API of the environment shown, who is signed in, and the test clock's moves. */
export type PageContext = { api: MerchantApi; environment: Environment; session: Session; clockMoves: number };
