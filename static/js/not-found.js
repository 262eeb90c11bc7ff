// The "Nothing here" page (404.html): its words in the reader's language.

import { translatePage } from "./words.js";

translatePage();
