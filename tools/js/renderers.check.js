// Type-checked only (tsc -p jsconfig.json), never run: every renderer module must fit the renderer
// contract of static/js/renderers/contract.js, its optional exports included. A new renderer gets
// a line here.
import * as generic from "../../static/js/renderers/generic.js";
import * as heroes from "../../static/js/renderers/heroes.js";
import * as nimalia from "../../static/js/renderers/nimalia.js";
import * as nomadi from "../../static/js/renderers/nomadi.js";
import * as throughTheDesert from "../../static/js/renderers/through-the-desert.js";

/** @type {Record<string, import("../../static/js/renderers/contract.js").Renderer>} */
export const renderers = { generic, heroes, nimalia, nomadi, "through-the-desert": throughTheDesert };
