/**
 * The `pixauto` command's one read of the time: the developer's machine's, for the signature timestamps of what it
 * forwards (a receiver checks them against its own clock). The command has no domain time of its own.
 */
export const machineNow = (): Date => new Date();
