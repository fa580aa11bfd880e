// guobiao-2p's part of the browser client (erren/web/js/families.js): its name, and the fan
// table a settlement's rules links open (the `gb` table when the table plays it).

/** @returns {import("../../../web/js/families.js").FamilyClient} */
export default function guobiao() {
  return {
    id: "guobiao-2p",
    name: { zh: "二人国标", en: "Guobiao 2-player" },
    blurb: { zh: "一门花色加字牌，番种计分", en: "One suit plus honors, scored in fan" },
    fanTable: (options) => (options.fan_table === "gb" ? "gb" : null),
  };
}
