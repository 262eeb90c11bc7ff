// What the server takes as a password's length (app/services/accounts/identity.py): 8 to 128
// characters, counted as characters (code points: an emoji is one, not two UTF-16 units).

/** Whether `password` has 8 to 128 characters. @param {string} password @returns {boolean} */
export function passwordLengthFits(password) {
  const characters = [...password].length;
  return characters >= 8 && characters <= 128;
}
