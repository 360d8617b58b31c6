/* SPDX-License-Identifier: ISC */
/*
 * Hosts' conventions in the bundle description: port groups (pg:group),
 * lv2:isLive, doap:shortdesc and MOD's metadata.
 *
 *   table      every port of every plugin has a group of its direction
 *              (pg:InputGroup holds only inputs, pg:OutputGroup only
 *              outputs); group symbols are valid LV2 symbols, unique, and no
 *              port of the plugin has one of them as its symbol (the spec
 *              puts group and port symbols in one namespace); group names
 *              are unique and non-empty
 *   rules      the group of symbols, those of the table and those that new
 *              rows will bring (energy_target, note_flip, omega3, ...): each
 *              expectation is written here from what the symbol means
 *   bundle     read back through lilv from the built bundle: every port's
 *              pg:group is the table's, and the group is described (type of
 *              its direction, one lv2:symbol, an lv2:name)
 *   plugin     lv2:isLive, a doap:shortdesc, mod:brand (<= 11 characters),
 *              a mod:label (<= 16, one per plugin), and the CV plugins, and
 *              only they, of class mod:ControlVoltagePlugin
 */
#include "cunit_main.h"
#include "lv2_host.h"
#include "ports.h"

#include <lilv/lilv.h>
#include <stdio.h>
#include <string.h>

#define NS_PG   "http://lv2plug.in/ns/ext/port-groups#"
#define NS_MOD  "http://moddevices.com/ns/mod#"
#define NS_LV2  "http://lv2plug.in/ns/lv2core#"
#define NS_DOAP "http://usefulinc.com/ns/doap#"
#define NS_RDF  "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

static LilvWorld *world;

static int is_output(pendula_port_kind k)
{
	return k == PK_CONTROL_OUT || k == PK_SIGNAL_OUT || k == PK_ATOM_OUT || k == PK_MOD_CV_OUT;
}

static int valid_symbol(const char *s)
{
	if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	for (++s; *s; ++s)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
		      (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

static void test_table(void)
{
	int used[PENDULA_N_GROUPS] = {0};
	for (int g = 0; g < PENDULA_N_GROUPS; ++g) {
		CU_ASSERT_TRUE(valid_symbol(pendula_groups[g].symbol));
		CU_ASSERT_TRUE(pendula_groups[g].name && pendula_groups[g].name[0]);
		for (int h = 0; h < g; ++h) {
			CU_ASSERT_STRING_NOT_EQUAL(pendula_groups[g].symbol,
			                           pendula_groups[h].symbol);
			CU_ASSERT_STRING_NOT_EQUAL(pendula_groups[g].name, pendula_groups[h].name);
		}
	}
	for (pendula_variant v = 0; v < PENDULA_N_VARIANTS; ++v) {
		int n = 0;
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			const pendula_port_info *p = &pendula_ports[id];
			if (!pendula_port_in_variant(v, id))
				continue;
			++n;
			const pendula_group g = pendula_port_group((pendula_port_id)id);
			CU_ASSERT_FATAL((int)g >= 0 && g < PENDULA_N_GROUPS);
			used[g] = 1;
			if (pendula_groups[g].output != is_output(p->kind)) {
				printf("\n  %s: port %s (%s) in group %s (%s)",
				       pendula_variant_names[v], p->symbol,
				       is_output(p->kind) ? "output" : "input",
				       pendula_groups[g].symbol,
				       pendula_groups[g].output ? "output" : "input");
				CU_FAIL("a port in a group of the other direction");
			}
			for (int h = 0; h < PENDULA_N_GROUPS; ++h)
				if (!strcmp(p->symbol, pendula_groups[h].symbol)) {
					printf("\n  %s: port symbol %s is a group symbol",
					       pendula_variant_names[v], p->symbol);
					CU_FAIL("a port symbol is a group symbol");
				}
		}
		CU_ASSERT_EQUAL(n, (int)pendula_port_count(v));
	}
	/* A group no port is in yet (one for ports to come) is not written
	 * to the TTL: said, not failed. */
	for (int g = 0; g < PENDULA_N_GROUPS; ++g)
		if (!used[g])
			printf("\n  (group %s has no port yet)", pendula_groups[g].symbol);
}

/* What each symbol is about, written from its meaning. */
static const struct {
	pendula_port_kind kind;
	const char *symbol;
	pendula_group group;
} expected[] = {
    {PK_CONTROL_IN, "time_scale", PENDULA_GROUP_PHYSICS},
    {PK_CONTROL_IN, "gravity", PENDULA_GROUP_PHYSICS},
    {PK_CONTROL_IN, "n_bodies", PENDULA_GROUP_PHYSICS},
    {PK_CONTROL_IN, "n_links", PENDULA_GROUP_PHYSICS},
    {PK_CONTROL_IN, "link_shape", PENDULA_GROUP_PHYSICS},
    {PK_CONTROL_IN, "freeze", PENDULA_GROUP_PHYSICS},
    {PK_CONTROL_IN, "m1", PENDULA_GROUP_BODY + 0},
    {PK_CONTROL_IN, "m6", PENDULA_GROUP_BODY + 5},
    {PK_CONTROL_IN, "l2", PENDULA_GROUP_BODY + 1},
    {PK_CONTROL_IN, "c3", PENDULA_GROUP_BODY + 2},
    {PK_CONTROL_IN, "inertia4", PENDULA_GROUP_BODY + 3},
    {PK_CONTROL_IN, "b2", PENDULA_GROUP_BODY + 1},
    {PK_CONTROL_IN, "beta3", PENDULA_GROUP_BODY + 2},
    {PK_CONTROL_IN, "lambda5", PENDULA_GROUP_BODY + 4},
    {PK_CONTROL_IN, "sigma1", PENDULA_GROUP_BODY + 0},
    {PK_CONTROL_IN, "surface", PENDULA_GROUP_SURFACE},
    {PK_CONTROL_IN, "axis_y", PENDULA_GROUP_SURFACE},
    {PK_CONTROL_IN, "floor_curvature", PENDULA_GROUP_SURFACE},
    {PK_CONTROL_IN, "pivot_x_amp", PENDULA_GROUP_FORCING},
    {PK_CONTROL_IN, "pivot_z_freq", PENDULA_GROUP_FORCING},
    {PK_CONTROL_IN, "pivot_y_sync", PENDULA_GROUP_FORCING},
    {PK_CONTROL_IN, "wave_number", PENDULA_GROUP_FORCING},
    {PK_CONTROL_IN, "energy_target", PENDULA_GROUP_ENERGY},
    {PK_CONTROL_IN, "energy_rate", PENDULA_GROUP_ENERGY},
    {PK_CONTROL_IN, "note_flip", PENDULA_GROUP_EVENTS},
    {PK_CONTROL_IN, "note_swing", PENDULA_GROUP_EVENTS},
    {PK_CONTROL_IN, "note_length", PENDULA_GROUP_EVENTS},
    {PK_CONTROL_IN, "theta1_init", PENDULA_GROUP_INITIAL},
    {PK_CONTROL_IN, "phi4_init", PENDULA_GROUP_INITIAL},
    {PK_CONTROL_IN, "spin_init", PENDULA_GROUP_INITIAL},
    {PK_CONTROL_IN, "floor_x_init", PENDULA_GROUP_INITIAL},
    {PK_CONTROL_IN, "reset", PENDULA_GROUP_INITIAL},
    {PK_CONTROL_IN, "reset_on_start", PENDULA_GROUP_INITIAL},
    {PK_CONTROL_IN, "midi_channel", PENDULA_GROUP_MIDI},
    {PK_CONTROL_IN, "energy_max", PENDULA_GROUP_MIDI},
    {PK_CONTROL_IN, "cc_theta3", PENDULA_GROUP_MIDI},
    {PK_CONTROL_IN, "cc_energy", PENDULA_GROUP_MIDI},
    {PK_CONTROL_IN, "cc_14bit", PENDULA_GROUP_MIDI},
    {PK_CONTROL_IN, "cc_omega2", PENDULA_GROUP_MIDI},
    {PK_CONTROL_IN, "cc_flips", PENDULA_GROUP_MIDI},
    {PK_ATOM_IN, "control", PENDULA_GROUP_MIDI},
    {PK_ATOM_OUT, "midi_out", PENDULA_GROUP_MIDI_OUT},
    {PK_SIGNAL_OUT, "theta1", PENDULA_GROUP_OUTPUTS},
    {PK_SIGNAL_OUT, "energy", PENDULA_GROUP_OUTPUTS},
    {PK_SIGNAL_OUT, "flips", PENDULA_GROUP_OUTPUTS},
    {PK_SIGNAL_OUT, "omega3", PENDULA_GROUP_OUTPUTS},
    {PK_SIGNAL_OUT, "vz", PENDULA_GROUP_OUTPUTS},
    {PK_CONTROL_OUT, "energy_ctl", PENDULA_GROUP_READOUTS},
    {PK_CONTROL_OUT, "x2_ctl", PENDULA_GROUP_READOUTS},
    {PK_CONTROL_OUT, "pivot_x_ctl", PENDULA_GROUP_READOUTS},
    {PK_CONTROL_OUT, "swings_ctl", PENDULA_GROUP_READOUTS},
};

static void test_rules(void)
{
	for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i) {
		const pendula_group g = pendula_group_of(expected[i].kind, expected[i].symbol);
		if (g != expected[i].group) {
			printf("\n  %s: group %s, expected %s", expected[i].symbol,
			       g < PENDULA_N_GROUPS ? pendula_groups[g].symbol : "(no row)",
			       pendula_groups[expected[i].group].symbol);
			CU_FAIL("a symbol in the wrong group");
		}
	}
	/* the table's rows agree with the rule (the rows named above, when the
	 * table has them) */
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i)
			if (!strcmp(pendula_ports[id].symbol, expected[i].symbol)) {
				CU_ASSERT_EQUAL(pendula_ports[id].kind, expected[i].kind);
				CU_ASSERT_EQUAL(pendula_port_group((pendula_port_id)id),
				                expected[i].group);
			}
}

/* The string of a node, or "" */
static const char *str(const LilvNode *n)
{
	return n && (lilv_node_is_string(n) || lilv_node_is_uri(n) || lilv_node_is_literal(n))
	           ? lilv_node_as_string(n)
	           : "";
}

static const LilvPlugin *plugin_of(pendula_variant v)
{
	LilvNode *uri = lilv_new_uri(world, pendula_variant_uris[v]);
	const LilvPlugin *p = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), uri);
	lilv_node_free(uri);
	return p;
}

static void test_bundle(void)
{
	LilvNode *pg_group = lilv_new_uri(world, NS_PG "group");
	LilvNode *in_group = lilv_new_uri(world, NS_PG "InputGroup");
	LilvNode *out_group = lilv_new_uri(world, NS_PG "OutputGroup");
	LilvNode *rdf_type = lilv_new_uri(world, NS_RDF "type");
	LilvNode *lv2_symbol = lilv_new_uri(world, NS_LV2 "symbol");
	LilvNode *lv2_name = lilv_new_uri(world, NS_LV2 "name");
	int checked = 0;

	for (pendula_variant v = 0; v < PENDULA_N_VARIANTS; ++v) {
		const LilvPlugin *plugin = plugin_of(v);
		CU_ASSERT_PTR_NOT_NULL_FATAL(plugin);
		const uint32_t n = lilv_plugin_get_num_ports(plugin);
		CU_ASSERT_EQUAL(n, pendula_port_count(v));
		for (uint32_t i = 0; i < n; ++i) {
			const LilvPort *port = lilv_plugin_get_port_by_index(plugin, i);
			const int id = pendula_port_id_at(v, i);
			CU_ASSERT_FATAL(id >= 0);
			LilvNodes *groups = lilv_port_get_value(plugin, port, pg_group);
			const unsigned n_groups = groups ? lilv_nodes_size(groups) : 0;
			if (n_groups != 1) {
				printf("\n  %s port %s: %u groups", pendula_variant_names[v],
				       pendula_ports[id].symbol, n_groups);
				CU_FAIL("a port without exactly one group");
				lilv_nodes_free(groups);
				continue;
			}
			const LilvNode *group = lilv_nodes_get_first(groups);
			const pendula_group g = pendula_port_group((pendula_port_id)id);
			char want[256];
			snprintf(want, sizeof want, PENDULA_GROUP_URI_FORMAT, (int)g,
			         pendula_groups[g].symbol);
			CU_ASSERT_STRING_EQUAL(str(group), want);
			CU_ASSERT_TRUE(lilv_world_ask(
			    world, group, rdf_type,
			    is_output(pendula_ports[id].kind) ? out_group : in_group));
			CU_ASSERT_FALSE(lilv_world_ask(
			    world, group, rdf_type,
			    is_output(pendula_ports[id].kind) ? in_group : out_group));
			LilvNodes *symbols = lilv_world_find_nodes(world, group, lv2_symbol, NULL);
			CU_ASSERT_EQUAL(symbols ? lilv_nodes_size(symbols) : 0, 1);
			if (symbols && lilv_nodes_size(symbols) == 1) {
				const char *sym = str(lilv_nodes_get_first(symbols));
				CU_ASSERT_STRING_EQUAL(sym, pendula_groups[g].symbol);
				/* not the symbol of a port of this plugin */
				LilvNode *sym_node = lilv_new_string(world, sym);
				CU_ASSERT_PTR_NULL(
				    lilv_plugin_get_port_by_symbol(plugin, sym_node));
				lilv_node_free(sym_node);
			}
			lilv_nodes_free(symbols);
			LilvNode *name = lilv_world_get(world, group, lv2_name, NULL);
			CU_ASSERT_STRING_EQUAL(str(name), pendula_groups[g].name);
			lilv_node_free(name);
			lilv_nodes_free(groups);
			++checked;
		}
	}
	CU_ASSERT_TRUE(checked > 100);
	lilv_node_free(pg_group);
	lilv_node_free(in_group);
	lilv_node_free(out_group);
	lilv_node_free(rdf_type);
	lilv_node_free(lv2_symbol);
	lilv_node_free(lv2_name);
}

static void test_plugin(void)
{
	LilvNode *is_live = lilv_new_uri(world, NS_LV2 "isLive");
	LilvNode *shortdesc = lilv_new_uri(world, NS_DOAP "shortdesc");
	LilvNode *brand = lilv_new_uri(world, NS_MOD "brand");
	LilvNode *label = lilv_new_uri(world, NS_MOD "label");
	LilvNode *rdf_type = lilv_new_uri(world, NS_RDF "type");
	LilvNode *cv_class = lilv_new_uri(world, NS_MOD "ControlVoltagePlugin");
	char labels[PENDULA_N_VARIANTS][64];

	for (pendula_variant v = 0; v < PENDULA_N_VARIANTS; ++v) {
		const LilvPlugin *plugin = plugin_of(v);
		CU_ASSERT_PTR_NOT_NULL_FATAL(plugin);
		const LilvNode *uri = lilv_plugin_get_uri(plugin);
		CU_ASSERT_TRUE(lilv_plugin_has_feature(plugin, is_live));

		LilvNode *desc = lilv_world_get(world, uri, shortdesc, NULL);
		CU_ASSERT_TRUE(strlen(str(desc)) > 10 && strlen(str(desc)) <= 80);
		lilv_node_free(desc);

		LilvNode *b = lilv_world_get(world, uri, brand, NULL);
		CU_ASSERT_STRING_EQUAL(str(b), "Pendula");
		CU_ASSERT_TRUE(strlen(str(b)) <= 11);
		lilv_node_free(b);

		LilvNode *l = lilv_world_get(world, uri, label, NULL);
		const size_t len = strlen(str(l));
		CU_ASSERT_TRUE(len > 0 && len <= 16);
		snprintf(labels[v], sizeof labels[v], "%s", str(l));
		for (pendula_variant w = 0; w < v; ++w)
			CU_ASSERT_STRING_NOT_EQUAL(labels[v], labels[w]);
		lilv_node_free(l);

		/* MOD lists the -cv and -mod plugins under Control Voltage */
		CU_ASSERT_EQUAL(lilv_world_ask(world, uri, rdf_type, cv_class) ? 1 : 0,
		                pendula_variant_is_cv(v) || pendula_variant_is_mod(v) ? 1 : 0);
	}
	lilv_node_free(is_live);
	lilv_node_free(shortdesc);
	lilv_node_free(brand);
	lilv_node_free(label);
	lilv_node_free(rdf_type);
	lilv_node_free(cv_class);
}

static CU_TestInfo group_tests[] = {
    {"table", test_table},   {"rules", test_rules}, {"bundle", test_bundle},
    {"plugin", test_plugin}, CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
    {"hosts' conventions", NULL, NULL, NULL, NULL, group_tests},
    CU_SUITE_INFO_NULL,
};

int main(int argc, char **argv)
{
	char err[512];
	if (argc != 2) {
		fprintf(stderr, "usage: test_port_groups BUNDLE_DIR\n");
		return 2;
	}
	world = lilv_world_new();
	if (!lv2th_load_bundle(world, argv[1], err, sizeof err)) {
		fprintf(stderr, "test_port_groups: %s\n", err);
		lilv_world_free(world);
		return 1;
	}
	const int status = test_cunit_main("test_port_groups", suites);
	lilv_world_free(world);
	return status;
}
