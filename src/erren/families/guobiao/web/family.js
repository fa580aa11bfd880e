// guobiao-2p's part of the browser client (erren/web/js/families.js): its name, the fan table a
// settlement's rules links open (the `gb` table when the table plays it) and its fan tables' names.

/** @returns {import("../../../web/js/families.js").FamilyClient} */
export default function guobiao() {
  return {
    id: "guobiao-2p",
    name: { zh: "二人国标", en: "Guobiao 2-player" },
    blurb: { zh: "一门花色加字牌，番种计分", en: "One suit plus honors, scored in fan" },
    fanTable: (options) => (options.fan_table === "gb" ? "gb" : null),
    // the rules page's fan tables (`rules_table_<id>`, the ids GET /rules/guobiao-2p lists)
    words: {
      rules_table_2p: ["二人番表", "2-player table"],
      rules_table_gb: ["国标番表", "Guobiao table"],
    },
  };
}
