/// The SDF loader: SDF 1.6 pose composition through nested models, links, inertials, collisions
/// and joints against hand-computed values; warnings for elements that do not change the
/// physics; and every bad file in argv[1] rejected with FILE:LINE: at the line marked
/// ERROR-LINE in it, with the text after each "EXPECT: " (up to " -->") in a diagnostic of
/// that file's line.
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "world_kit.h"

typedef struct diags {
    int errors, warnings;
    char first_error[1024], all[8192];
} diags;

static void collect(void *user, int is_error, const char *line)
{
    diags *d = user;
    if (is_error && d->errors++ == 0) snprintf(d->first_error, sizeof d->first_error, "%s", line);
    if (!is_error) d->warnings++;
    size_t used = strlen(d->all);
    snprintf(d->all + used, sizeof d->all - used, "%s\n", line);
}

/* text written to a scratch file and loaded; *d collects the diagnostics. */
static ipx_scene *load_text(const char *text, diags *d)
{
    return kit_load("test_world_loader_1.world", text, collect, d);
}

/* text loaded with no error (else NULL, the diagnostics printed); *d collects them. */
static ipx_scene *load_clean(const char *text, diags *d)
{
    ipx_scene *scene = load_text(text, d);
    ENSURE(scene != NULL && d->errors == 0);
    if (!scene) printf("%s", d->all);
    return scene;
}

/* Outer model at (1 2 3), yaw 90 deg; inner model 1 m along the outer x; link 1 m up, rolled 90
   deg; its inertial 0.5 m along the link x with moments (1 2 3); a box 0.2 m along the link z; a
   revolute joint to the world 0.5 m below the link along its z, axis x of the joint frame; a
   prismatic joint on a second link with use_parent_model_frame, axis z of the inner model. */
static const char nested[] =
    "<?xml version='1.0'?>\n"
    "<sdf version='1.6' xmlns:impax='urn:impax:sdf:1'><world name='poses'>\n"
    "<gravity>0 0 0</gravity>\n"
    "<model name='outer'><pose>1 2 3 0 0 1.5707963267948966</pose>\n"
    " <model name='inner'><pose>1 0 0 0 0 0</pose>\n"
    "  <link name='arm'><pose>0 0 1 1.5707963267948966 0 0</pose>\n"
    "   <inertial><pose>0.5 0 0 0 0 0</pose><mass>2</mass>\n"
    "    "
    "<inertia><ixx>1</ixx><ixy>0</ixy><ixz>0</ixz><iyy>2</iyy><iyz>0</iyz><izz>3</izz></inertia></"
    "inertial>\n"
    "   <collision name='c'><pose>0 0 0.2 0 0 0</pose><geometry><box><size>0.1 0.1 "
    "0.1</size></box></geometry>\n"
    "    "
    "<surface><bounce><restitution_coefficient>0.5</restitution_coefficient></bounce></surface></"
    "collision>\n"
    "   <impax:linear_velocity>0.5 0 0</impax:linear_velocity>\n"
    "  </link>\n"
    "  <link name='slider'><pose>0 0 0 0 0 0</pose></link>\n"
    "  <joint name='pin' type='revolute'><parent>world</parent><child>arm</child><pose>0 0 -0.5 0 "
    "0 0</pose>\n"
    "   <axis><xyz>1 0 0</xyz></axis></joint>\n"
    "  <joint name='rail' type='prismatic'><parent>arm</parent><child>slider</child>\n"
    "   <axis><xyz>1 0 0</xyz><use_parent_model_frame>true</use_parent_model_frame>\n"
    "    <limit><lower>-0.1</lower><upper>0.2</upper></limit></axis></joint>\n"
    " </model>\n"
    "</model>\n"
    "<light name='sun' type='directional'/><gui/><plugin name='p' filename='libp.so'/>\n"
    "<include><uri>model://sun</uri></include>\n"
    "</world></sdf>\n";

static void test_nested_poses_inertia_and_joint_axes(void)
{
    diags d = {0};
    ipx_scene *scene = load_clean(nested, &d);
    if (!scene) return;
    ENSURE(d.warnings >= 5 && strstr(d.all, "<light>") && strstr(d.all, "<gui>") &&
           strstr(d.all, "<plugin>") && strstr(d.all, "model://sun"));
    ENSURE(
        strstr(d.all,
               ":9: warning: collision 'c' has restitution 0.5 but a bounce threshold of 100000") !=
        NULL);
    ipx_sim *sim = kit_sim(scene, "plus");
    ENSURE(sim != NULL);
    int arm = ipx_sim_body_index(sim, "outer::inner::arm");
    ENSURE(arm >= 0 && ipx_sim_body_index(sim, "outer::inner::slider") >= 0);
    dBodyID b = ipx_sim_body(sim, arm);
    /* link at (1 3 4); body frame = inertial frame: COM 0.5 m along the link x = world +y */
    const dReal *x = dBodyGetPosition(b);
    ENSURE_NEAR(x[0], 1.0, 1e-12);
    ENSURE_NEAR(x[1], 3.5, 1e-12);
    ENSURE_NEAR(x[2], 4.0, 1e-12);
    /* body axes: x -> world y, y -> world z, z -> world x, so the world inertia is diag(3 1 2) */
    dMass m;
    dBodyGetMass(b, &m);
    const dReal *R = dBodyGetRotation(b);
    double Iw[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++)
                for (int l = 0; l < 3; l++) s += R[4 * i + k] * m.I[4 * k + l] * R[4 * j + l];
            Iw[i][j] = s;
        }
    const double expect[3][3] = {{3, 0, 0}, {0, 1, 0}, {0, 0, 2}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) ENSURE_NEAR(Iw[i][j], expect[i][j], 1e-12);
    ENSURE_NEAR(m.mass, 2.0, 0);
    /* the box 0.2 m along the link z = world +x from the link origin */
    dGeomID g = dBodyGetFirstGeom(b);
    const dReal *gp = dGeomGetPosition(g);
    ENSURE_NEAR(gp[0], 1.2, 1e-12);
    ENSURE_NEAR(gp[1], 3.0, 1e-12);
    ENSURE_NEAR(gp[2], 4.0, 1e-12);
    ENSURE_NEAR(dBodyGetLinearVel(b)[0], 0.5, 0); /* impax:linear_velocity, world frame */
    /* joints: the pin's anchor 0.5 m below the link along its z (world -x), its axis the joint
       frame's x (world +y); the rail's axis the inner model's x (world +y), limits kept */
    dVector3 anchor, axis;
    for (int j = 0; j < dBodyGetNumJoints(b); j++) {
        dJointID joint = dBodyGetJoint(b, j);
        if (dJointGetType(joint) == dJointTypeHinge) {
            dJointGetHingeAnchor(joint, anchor);
            dJointGetHingeAxis(joint, axis);
            ENSURE_NEAR(anchor[0], 0.5, 1e-12);
            ENSURE_NEAR(anchor[1], 3.0, 1e-12);
            ENSURE_NEAR(anchor[2], 4.0, 1e-12);
            ENSURE_NEAR(axis[1], 1.0, 1e-12);
        } else {
            ENSURE(dJointGetType(joint) == dJointTypeSlider);
            dJointGetSliderAxis(joint, axis);
            ENSURE_NEAR(axis[0], 0.0, 1e-12);
            ENSURE_NEAR(fabs(axis[1]), 1.0, 1e-12);
            ENSURE_NEAR(dJointGetSliderParam(joint, dParamLoStop), -0.1, 0);
            ENSURE_NEAR(dJointGetSliderParam(joint, dParamHiStop), 0.2, 0);
        }
    }
    ENSURE(dBodyGetNumJoints(b) == 2);
    ENSURE_NEAR(ipx_scene_step_size(scene), 0.001, 0); /* SDF 1.6 defaults */
    ENSURE_NEAR(ipx_scene_duration(scene), 2.0, 0);
    ENSURE(strcmp(ipx_scene_plot_body(scene), "outer::inner::arm") == 0);
    ENSURE(strcmp(ipx_scene_replay_body(scene), "outer::inner::arm") ==
           0); /* no impax:replay: the first */
    ENSURE_NEAR(ipx_scene_replay_length(scene), 1.0, 0);
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
}

/* <impax:replay> names the replayed body (a later link than the first) and the length. */
static void test_replay_element(void)
{
    static const char text[] =
        "<?xml version='1.0'?>\n"
        "<sdf version='1.6' xmlns:impax='urn:impax:sdf:1'><world name='r'>\n"
        "<impax:replay><impax:body>b::link</impax:body><impax:length>0.25</impax:length></"
        "impax:replay>\n"
        "<model name='a'><link name='link'/></model><model name='b'><link name='link'/></model>\n"
        "</world></sdf>\n";
    diags d = {0};
    ipx_scene *scene = load_clean(text, &d);
    if (!scene) return;
    ENSURE(strcmp(ipx_scene_replay_body(scene), "b::link") == 0);
    ENSURE(strcmp(ipx_scene_plot_body(scene), "a::link") == 0);
    ENSURE_NEAR(ipx_scene_replay_length(scene), 0.25, 0);
    ipx_scene_free(scene);
}

/* Names are kept whole: two 300-character link names differing in their last character are two
   links, and a joint binds to the one it names (names were cut at 127 characters and collided). */
static void test_long_names_are_kept_whole(void)
{
    char stem[301], text[4096];
    memset(stem, 'n', 299);
    stem[299] = '\0';
    snprintf(
        text, sizeof text,
        "<?xml version='1.0'?>\n<sdf version='1.6'><world name='w'><gravity>0 0 0</gravity>\n"
        "<model name='m'><link name='%sA'><pose>1 0 0 0 0 0</pose></link>\n"
        "<link name='%sB'><pose>2 0 0 0 0 0</pose></link>\n"
        "<joint name='%sJ' type='ball'><parent>world</parent><child>%sB</child></joint></model>\n"
        "</world></sdf>\n",
        stem, stem, stem, stem);
    diags d = {0};
    ipx_scene *scene = load_clean(text, &d);
    if (!scene) return;
    char name[320];
    ipx_sim *sim = kit_sim(scene, "plus");
    ENSURE(sim != NULL);
    if (sim) {
        snprintf(name, sizeof name, "m::%sB", stem);
        const int b = ipx_sim_body_index(sim, name);
        ENSURE(ipx_sim_body_count(sim) == 2 && b >= 0 &&
               strlen(ipx_sim_body_name(sim, b)) == 3 + 300);
        ENSURE(b >= 0 && dBodyGetPosition(ipx_sim_body(sim, b))[0] == 2.0);
        ENSURE(b >= 0 && dBodyGetNumJoints(ipx_sim_body(sim, b)) == 1);
        ENSURE(dBodyGetNumJoints(ipx_sim_body(sim, 1 - b)) == 0);
        ipx_sim_destroy(sim);
    }
    ipx_scene_free(scene);
}

/* A value is its element's own text: comments around it and CDATA are text's business; white
   space, newlines included, surrounds it. */
static void test_values_are_their_own_text(void)
{
    static const char text[] =
        "<?xml version='1.0'?>\n<sdf version='1.6'><world name='w'><gravity>0 0 0</gravity>\n"
        "<model name='m'><link name='a'><inertial><mass>\n  2 <!-- kg "
        "-->\n</mass></inertial></link>\n"
        "<link name='b'><inertial><mass><![CDATA[3]]></mass></inertial></link></model>\n"
        "</world></sdf>\n";
    diags d = {0};
    ipx_scene *scene = load_clean(text, &d);
    if (!scene) return;
    ipx_sim *sim = kit_sim(scene, "plus");
    ENSURE(sim != NULL);
    if (sim) {
        dMass a, b;
        dBodyGetMass(ipx_sim_body(sim, ipx_sim_body_index(sim, "m::a")), &a);
        dBodyGetMass(ipx_sim_body(sim, ipx_sim_body_index(sim, "m::b")), &b);
        ENSURE_NEAR(a.mass, 2.0, 0);
        ENSURE_NEAR(b.mass, 3.0, 0);
        ipx_sim_destroy(sim);
    }
    ipx_scene_free(scene);
}

/* Diagnostics are one printable line each: the newlines and control characters of the text they
   quote are escaped. */
static void test_diagnostics_quote_control_characters(void)
{
    static const char text[] = "<?xml version='1.0'?>\n<sdf version='1.6'><world name='w'>\n"
                               "<gravity>0 0\n  -9.8 x\t</gravity>\n"
                               "</world></sdf>\n";
    diags d = {0};
    ipx_scene *scene = load_text(text, &d);
    ENSURE(scene == NULL && d.errors == 1);
    ENSURE(strstr(d.first_error, "<gravity> needs 3 finite numbers, got '0 0\\n  -9.8 x'") != NULL);
    printf("  %s\n", d.first_error);
    ipx_scene_free(scene);
}

/* libxml2's own messages too (found by tests/fuzz/fuzz_world): its UTF-8 error spans two lines
   ("... indicate encoding !\nBytes: 0xAB ..."), reported as one. */
static void test_xml_syntax_errors_are_one_line(void)
{
    static const char text[] =
        "<?xml version='1.0'?>\n<sdf version='1.6'><world name='\xab\xab'/></sdf>\n";
    diags d = {0};
    ipx_scene *scene = load_text(text, &d);
    ENSURE(scene == NULL && d.errors >= 1);
    ENSURE(strstr(d.first_error, "XML syntax error: Input is not proper UTF-8") != NULL);
    ENSURE(strstr(d.first_error, "Bytes: 0xAB") != NULL);
    for (const char *c = d.first_error; *c; c++) ENSURE((unsigned char)*c >= 0x20);
    printf("  %s\n", d.first_error);
    ipx_scene_free(scene);
}

/* The line of the first ERROR-LINE marker of path. */
static int marked_line(const char *path)
{
    FILE *f = fopen(path, "r");
    char buf[1024];
    int line = 0, found = 0;
    while (f && fgets(buf, sizeof buf, f)) {
        line++;
        if (strstr(buf, "ERROR-LINE")) {
            found = line;
            break;
        }
    }
    if (f) fclose(f);
    return found;
}

/* 1 if the diagnostics hold a line "path:line: ...text..." */
static int has_diagnostic(const diags *d, const char *path, int line, const char *text)
{
    char prefix[1100];
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    for (const char *at = d->all; (at = strstr(at, prefix)) != NULL; at++) {
        const char *end = strchr(at, '\n');
        const char *hit = strstr(at, text);
        if (hit && (!end || hit < end)) return 1;
    }
    return 0;
}

/* Every "EXPECT: text -->" of path is in a diagnostic at its own line. */
static int expectations_met(const char *path, const diags *d)
{
    FILE *f = fopen(path, "r");
    char buf[1024];
    int line = 0, ok = 1;
    while (f && fgets(buf, sizeof buf, f)) {
        line++;
        char *text = strstr(buf, "EXPECT: "), *end = text ? strstr(text, " -->") : NULL;
        if (!text || !end) continue;
        *end = '\0';
        text += strlen("EXPECT: ");
        if (!has_diagnostic(d, path, line, text)) {
            printf("    expected at line %d: '%s'\n", line, text);
            ok = 0;
        }
    }
    if (f) fclose(f);
    return ok;
}

static void test_bad_files_name_file_and_line(const char *dir)
{
    DIR *dd = opendir(dir);
    ENSURE(dd != NULL);
    int n = 0;
    struct dirent *e;
    while (dd && (e = readdir(dd)) != NULL) {
        if (!strstr(e->d_name, ".world")) continue;
        char path[1024], prefix[1100];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        diags d = {0};
        ipx_scene *scene = ipx_scene_load(path, collect, &d);
        int line = marked_line(path);
        snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
        int ok = scene == NULL && d.errors >= 1 && line > 0 && strstr(d.all, prefix) != NULL;
        printf("  %-34s %s\n", e->d_name, d.first_error);
        if (!ok) printf("    expected a diagnostic starting '%s'\n%s", prefix, d.all);
        if (!expectations_met(path, &d)) {
            printf("%s", d.all);
            ok = 0;
        }
        ENSURE(ok);
        ipx_scene_free(scene);
        n++;
    }
    if (dd) closedir(dd);
    ENSURE(n >= 13);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    RUN(test_nested_poses_inertia_and_joint_axes);
    RUN(test_replay_element);
    RUN(test_long_names_are_kept_whole);
    RUN(test_values_are_their_own_text);
    RUN(test_diagnostics_quote_control_characters);
    RUN(test_xml_syntax_errors_are_one_line);
    test_bad_files_name_file_and_line(argv[1]);
    return ipx_test_exit();
}
