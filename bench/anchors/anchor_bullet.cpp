/* The cube toss in Bullet (anchor.h), double precision (Debian's bullet-float64): a
   btDiscreteDynamicsWorld at its defaults (sequential impulses, 10 iterations, split impulse,
   restitution only above 0.2 m/s, sleeping after 2 s at rest), a btBoxShape on a
   btStaticPlaneShape (the box a child of a compound shape, placed against the cube's centre of
   mass; Bullet moves a body by its centre of mass, the tosses track the cube's frame:
   anchor_body_frame turns one into the other). What is fitted is the cube's lateral friction and
   restitution, and if asked its rolling and spinning friction and its inertia (a factor on the
   scene's, as impax's inertia_scale). Bullet combines two objects' friction and restitution
   as products, and rolling and spinning friction as r0 f1 + r1 f0, so the table has friction 1,
   restitution 1 and no rolling or spinning friction: a contact gets the cube's values. A replay
   builds a fresh world, so that nothing (cached contact points, sleeping) carries over. */
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "anchor.h"

namespace
{

enum { FRICTION, RESTITUTION, ROLLING, SPINNING, INERTIA };

struct bullet_world {
    anchor_scene scene;
    double values[ANCHOR_MAX_PARAMS];
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btStaticPlaneShape table_shape{btVector3(0, 0, 1), 0};
    btBoxShape cube_shape;
    btCompoundShape cube_compound{false, 1};
    cli_body_frame frame;
    std::unique_ptr<btDiscreteDynamicsWorld> dynamics;
    std::unique_ptr<btRigidBody> table, cube;

    bullet_world(const anchor_scene &s, const double *v)
        : scene(s), cube_shape(btVector3(1, 1, 1) * (0.5 * s.edge_m)), frame(anchor_body_frame(&s))
    {
        for (int i = 0; i < ANCHOR_MAX_PARAMS; i++) values[i] = v[i];
        const btVector3 box_centre(-s.com_m[0], -s.com_m[1], -s.com_m[2]);
        cube_compound.addChildShape(btTransform(btQuaternion::getIdentity(), box_centre),
                                    &cube_shape);
    }
    ~bullet_world() { clear(); }

    void clear()
    {
        if (dynamics) {
            dynamics->removeRigidBody(cube.get());
            dynamics->removeRigidBody(table.get());
        }
        cube.reset();
        table.reset();
        dynamics.reset();
    }

    /* A fresh world with the table and the cube at rest at the origin. */
    void build()
    {
        clear();
        dynamics =
            std::make_unique<btDiscreteDynamicsWorld>(&dispatcher, &broadphase, &solver, &config);
        dynamics->setGravity(btVector3(0, 0, -scene.gravity_mps2));
        table = std::make_unique<btRigidBody>(0.0, nullptr, &table_shape);
        table->setFriction(1.0);
        table->setRestitution(1.0);
        dynamics->addRigidBody(table.get());
        const double inertia = scene.inertia_kgm2 * values[INERTIA];
        btRigidBody::btRigidBodyConstructionInfo info(scene.mass_kg, nullptr, &cube_compound,
                                                      btVector3(inertia, inertia, inertia));
        info.m_friction = values[FRICTION];
        info.m_restitution = values[RESTITUTION];
        info.m_rollingFriction = values[ROLLING];
        info.m_spinningFriction = values[SPINNING];
        cube = std::make_unique<btRigidBody>(info);
        dynamics->addRigidBody(cube.get());
    }
};

void *bullet_create(const anchor_scene *scene, const double *values, char *message,
                    size_t message_size)
{
    try {
        return new bullet_world(*scene, values);
    } catch (const std::bad_alloc &) {
        std::snprintf(message, message_size, "out of memory");
        return nullptr;
    }
}

int bullet_start(void *world, const cli_sample *tracked, char *message, size_t message_size)
{
    auto *w = static_cast<bullet_world *>(world);
    cli_sample body;
    cli_body_frame_to_body(&w->frame, tracked, &body);
    const cli_sample *s = &body;
    btQuaternion q(s->q[1], s->q[2], s->q[3], s->q[0]); /* Bullet's order: x y z w */
    if (!(q.length() > 0)) {
        std::snprintf(message, message_size, "the first sample's quaternion is zero");
        return -1;
    }
    try {
        w->build();
    } catch (const std::bad_alloc &) {
        std::snprintf(message, message_size, "out of memory");
        return -1;
    }
    const btTransform pose(q.normalized(), btVector3(s->x_m[0], s->x_m[1], s->x_m[2]));
    btRigidBody &cube = *w->cube;
    cube.setCenterOfMassTransform(pose);
    cube.setLinearVelocity(btVector3(s->v_mps[0], s->v_mps[1], s->v_mps[2]));
    /* Bullet takes the angular velocity in the world frame: R w_body */
    cube.setAngularVelocity(pose.getBasis() *
                            btVector3(s->w_body_radps[0], s->w_body_radps[1], s->w_body_radps[2]));
    /* the broadphase must see the cube where it now is before the first step */
    w->dynamics->updateSingleAabb(&cube);
    return 0;
}

void bullet_step(void *world)
{
    auto *w = static_cast<bullet_world *>(world);
    w->dynamics->stepSimulation(w->scene.step_s, 0); /* no sub-steps: one step of step_s */
}

int bullet_state(void *world, cli_sample *tracked, char *, size_t)
{
    const auto *w = static_cast<bullet_world *>(world);
    const btRigidBody &cube = *w->cube;
    cli_sample body = *tracked, *s = &body;
    const btTransform &pose = cube.getCenterOfMassTransform();
    const btQuaternion q = pose.getRotation();
    const btVector3 &x = pose.getOrigin(), &v = cube.getLinearVelocity();
    const btVector3 w_body = pose.getBasis().transpose() * cube.getAngularVelocity();
    for (int i = 0; i < 3; i++) {
        s->x_m[i] = x[i];
        s->v_mps[i] = v[i];
        s->w_body_radps[i] = w_body[i];
    }
    s->q[0] = q.w();
    s->q[1] = q.x();
    s->q[2] = q.y();
    s->q[3] = q.z();
    cli_body_frame_to_tracked(&w->frame, &body, tracked);
    return 0;
}

void bullet_destroy(void *world) { delete static_cast<bullet_world *>(world); }

const char *bullet_version()
{
    static char text[16];
    std::snprintf(text, sizeof text, "%d.%02d", btGetVersion() / 100, btGetVersion() % 100);
    return text;
}

/* Bounds: friction, restitution and the inertia's factor as impax's fits bound mu, e and
   inertia_scale, rolling and spinning friction (lengths: torque per normal force) up to a tenth
   of the half width; the fit starts from the middle of the bounds, as impax's fits of mu and e
   do, and the inertia at the scene's, as impax's does. Not fitted, rolling and spinning
   friction stay at Bullet's default, 0, and the inertia at the scene's. */
anchor_sim make_sim()
{
    anchor_sim sim{};
    sim.name = "bullet";
    sim.display = "Bullet";
    sim.version = bullet_version;
    sim.n_params = 5;
    sim.n_default = 2;
    sim.params[FRICTION] = {"friction", "", 0.0, 1.0, 0.5, 0.5};
    sim.params[RESTITUTION] = {"restitution", "", 0.0, 1.0, 0.5, 0.0};
    sim.params[ROLLING] = {"rolling", "m", 0.0, 0.00524, 0.00262, 0.0};
    sim.params[SPINNING] = {"spinning", "m", 0.0, 0.00524, 0.00262, 0.0};
    sim.params[INERTIA] = {"inertia_scale", "", 0.5, 2.0, 1.0, 1.0};
    sim.create = bullet_create;
    sim.start = bullet_start;
    sim.step = bullet_step;
    sim.state = bullet_state;
    sim.destroy = bullet_destroy;
    return sim;
}

} // namespace

extern "C" const anchor_sim anchor_bullet = make_sim();
